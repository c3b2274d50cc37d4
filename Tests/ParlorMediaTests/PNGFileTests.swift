import Testing
@testable import ParlorMedia

@Suite struct PNGFileTests {
    @Test func chunksAreWalkedFromTheHeaderToTheEnd() throws {
        let png = try PNGFile(PNGBuilder.file([PNGBuilder.header, PNGBuilder.colour, PNGBuilder.text, PNGBuilder.data, PNGBuilder.end]))
        #expect(png.chunks.map(\.type) == ["IHDR", "sRGB", "tEXt", "IDAT", "IEND"])
        #expect(png.chunks.map(\.isAncillary) == [false, true, true, false, false])
        #expect([png.pixelSize.width, png.pixelSize.height] == [640, 480])
        #expect(ImageFormat.sniff(png.bytes) == .png)
    }

    @Test func brokenFilesAreRefusedWithAReason() {
        #expect(throws: MediaError(.notAnImage, "not a PNG file (no PNG signature)")) { try PNGFile(Array("GIF89a".utf8)) }
        // A chunk whose length runs past the end.
        #expect(throws: MediaError(.malformed, "chunk IHDR at byte 8 runs past the end")) {
            try PNGFile(PNGFile.signature + [0, 0, 0x10, 0] + Array("IHDR".utf8) + [1, 2, 3])
        }
        // A header that is not first, no image data, a type that is not letters, no end.
        #expect(throws: MediaError(.malformed, "the first chunk is not a 13-byte IHDR")) {
            try PNGFile(PNGBuilder.file([PNGBuilder.colour, PNGBuilder.header, PNGBuilder.data, PNGBuilder.end]))
        }
        #expect(throws: MediaError(.malformed, "no image data (no IDAT chunk)")) {
            try PNGFile(PNGBuilder.file([PNGBuilder.header, PNGBuilder.end]))
        }
        #expect(throws: MediaError(.malformed, "chunk at byte 33 has no four-letter type")) {
            try PNGFile(PNGBuilder.file([PNGBuilder.header, PNGBuilder.chunk("ab1!", []), PNGBuilder.end]))
        }
        #expect(throws: MediaError.self) { try PNGFile(PNGBuilder.file([PNGBuilder.header, PNGBuilder.data])) }
    }

    @Test func strippingRemovesTextEXIFAndTimeAndKeepsTheImage() throws {
        let original = PNGBuilder.file([
            PNGBuilder.header, PNGBuilder.colour, PNGBuilder.text, PNGBuilder.international, PNGBuilder.compressed,
            PNGBuilder.exif, PNGBuilder.time, PNGBuilder.data, PNGBuilder.end,
        ])
        let stripped = try PNGFile(original).withoutMetadata()
        #expect(stripped == PNGBuilder.file([PNGBuilder.header, PNGBuilder.colour, PNGBuilder.data, PNGBuilder.end]))
        #expect(!stripped.containsSequence(Array("Ann".utf8)) && !stripped.containsSequence(Array("GPS".utf8)))
        #expect(try PNGFile(stripped).chunks.map(\.type) == ["IHDR", "sRGB", "IDAT", "IEND"])
    }

    @Test func truncatedAndCorruptedFilesNeverTrap() {
        let bytes = PNGBuilder.file([PNGBuilder.header, PNGBuilder.text, PNGBuilder.exif, PNGBuilder.data, PNGBuilder.end])
        for length in 0...bytes.count {
            _ = (try? PNGFile(Array(bytes.prefix(length))))?.withoutMetadata()
        }
        for index in bytes.indices {
            for value: UInt8 in [0x00, 0x7F, 0xFF] {
                var corrupted = bytes
                corrupted[index] = value
                if let png = try? PNGFile(corrupted) {
                    _ = png.withoutMetadata()
                    _ = png.pixelSize
                }
            }
        }
    }
}
