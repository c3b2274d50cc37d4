import Testing
@testable import ParlorMedia

@Suite struct JPEGFileTests {
    @Test func formatsAreKnownByTheirBytes() {
        #expect(ImageFormat.sniff(JPEGBuilder.file([JPEGBuilder.scan])) == .jpeg)
        #expect(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]) == .png)
        #expect(ImageFormat.sniff(Array("GIF89a".utf8)) == nil)
        #expect(ImageFormat.sniff(Array("<svg>".utf8)) == nil)
        #expect(ImageFormat.sniff([0xFF, 0xD8]) == nil)
        #expect(ImageFormat.jpeg.mediaType == "image/jpeg")
    }

    @Test func segmentsAreWalkedThroughTheScanToTheEnd() throws {
        let bytes = JPEGBuilder.file([JPEGBuilder.jfif, JPEGBuilder.quantization, JPEGBuilder.frame, JPEGBuilder.scan])
        let jpeg = try JPEGFile(bytes)
        #expect(jpeg.segments.map(\.marker) == [0xE0, 0xDB, 0xC0, 0xDA, 0xD9])
        // The scan runs over its stuffed 0xFF00 and its restart marker to the end-of-image marker.
        let scan = try #require(jpeg.segments.first { $0.marker == 0xDA })
        #expect(Array(bytes[scan.range].suffix(8)) == [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0x78])
    }

    @Test func aFileWithoutTheEndMarkerIsStillRead() throws {
        let jpeg = try JPEGFile(JPEGBuilder.file([JPEGBuilder.frame, JPEGBuilder.scan], end: false))
        #expect(jpeg.segments.last?.marker == 0xDA)
    }

    /// A file that ends without EOI right after a restart marker walks, as one ending after any other
    /// segment does; stripping the blocks after such a marker left a file that did not. Found by
    /// fuzz-media (Tests/Fuzz/Reproducers/media/ends-after-restart-marker).
    @Test func aFileEndingAfterARestartMarkerIsStillRead() throws {
        let bytes = JPEGBuilder.file([JPEGBuilder.scan, JPEGBuilder.frame, [0xFF, 0xFF, 0xD7], JPEGBuilder.comment], end: false)
        let file = try JPEGFile(bytes)
        #expect(file.segments.last?.marker == 0xFE)
        let stripped = try file.withoutMetadata()
        #expect(try JPEGFile(stripped).segments.last?.marker == 0xD7)
    }

    @Test func brokenFilesAreRefusedWithAReason() {
        #expect(throws: MediaError(.notAnImage, "not a JPEG file (no start-of-image marker)")) { try JPEGFile(Array("hello".utf8)) }
        // A segment whose length runs past the end.
        #expect(throws: MediaError.self) { try JPEGFile([0xFF, 0xD8, 0xFF, 0xE1, 0x40, 0x00, 1, 2, 3]) }
        // No image data at all.
        #expect(throws: MediaError.self) { try JPEGFile(JPEGBuilder.file([JPEGBuilder.jfif])) }
        // Garbage where a marker should be.
        #expect(throws: MediaError.self) { try JPEGFile([0xFF, 0xD8, 0x00, 0x01, 0x02, 0x03]) }
    }

    /// A stuffed zero (0xFF 0x00) or a reserved code where a segment should start is refused: read as a
    /// segment with a length, it swallowed the blocks after it (an EXIF block in an APP3, here), which then
    /// survived stripping inside it. Found by fuzz-media (Tests/Fuzz/Reproducers/media/stuffed-zero-marker).
    @Test(arguments: [0x00, 0x02, 0x4F, 0xBF] as [UInt8]) func aByteThatIsNotAMarkerIsRefused(code: UInt8) {
        let hidden = JPEGBuilder.segment(0xE3, JPEGFile.exifSignature + TIFFBuilder.photo())
        let swallowing = [0xFF, code, UInt8((2 + hidden.count) >> 8), UInt8((2 + hidden.count) & 0xFF)] + hidden
        let bytes = JPEGBuilder.file([JPEGBuilder.jfif, swallowing, JPEGBuilder.quantization, JPEGBuilder.frame, JPEGBuilder.scan])
        #expect(throws: MediaError(.malformed, "byte 20 is 0xFF 0x\(String(code, radix: 16)), which is not a marker")) {
            try JPEGFile(bytes)
        }
    }

    @Test func strippingRemovesEveryIdentifyingBlockAndKeepsTheImage() throws {
        let original = JPEGBuilder.file([
            JPEGBuilder.jfif, JPEGBuilder.exif(TIFFBuilder.photo(orientation: 1)), JPEGBuilder.xmp, JPEGBuilder.icc,
            JPEGBuilder.iptc, JPEGBuilder.comment, JPEGBuilder.quantization, JPEGBuilder.frame, JPEGBuilder.scan,
        ])
        let stripped = try JPEGFile(original).withoutMetadata()
        #expect(stripped == JPEGBuilder.file([JPEGBuilder.jfif, JPEGBuilder.icc, JPEGBuilder.quantization, JPEGBuilder.frame, JPEGBuilder.scan]))
        let again = try JPEGFile(stripped)
        #expect(try EXIFMetadata.read(jpeg: again) == EXIFMetadata())
        #expect(!stripped.containsSequence(Array("GPS".utf8)) && !stripped.containsSequence(Array("Ann".utf8)))
    }

    /// A phone photo taken sideways keeps only its orientation, in a block of its own after the JFIF
    /// header, so it still shows upright; its place and time are gone.
    @Test func strippingKeepsOnlyTheOrientation() throws {
        let original = JPEGBuilder.file([JPEGBuilder.jfif, JPEGBuilder.exif(TIFFBuilder.photo(orientation: 6)), JPEGBuilder.frame, JPEGBuilder.scan])
        let stripped = try JPEGFile(try JPEGFile(original).withoutMetadata())
        #expect(stripped.segments.map(\.marker) == [0xE0, 0xE1, 0xC0, 0xDA, 0xD9])
        #expect(try EXIFMetadata.read(jpeg: stripped) == EXIFMetadata(orientation: 6))
        // Without a JFIF header the block comes first.
        let bare = try JPEGFile(try JPEGFile(JPEGBuilder.file([JPEGBuilder.exif(TIFFBuilder.photo(orientation: 8)), JPEGBuilder.frame, JPEGBuilder.scan])).withoutMetadata())
        #expect(bare.segments.map(\.marker) == [0xE1, 0xC0, 0xDA, 0xD9])
        #expect(try EXIFMetadata.read(jpeg: bare).orientation == 8)
    }

    @Test func truncatedAndCorruptedFilesNeverTrap() {
        let bytes = JPEGBuilder.file([JPEGBuilder.jfif, JPEGBuilder.exif(TIFFBuilder.photo()), JPEGBuilder.quantization, JPEGBuilder.frame, JPEGBuilder.scan])
        for length in 0...bytes.count {
            if let jpeg = try? JPEGFile(Array(bytes.prefix(length))) {
                _ = try? EXIFMetadata.read(jpeg: jpeg)
                _ = try? jpeg.withoutMetadata()
            }
        }
        for index in bytes.indices {
            for value: UInt8 in [0x00, 0xD9, 0xDA, 0xFF] {
                var corrupted = bytes
                corrupted[index] = value
                if let jpeg = try? JPEGFile(corrupted) {
                    _ = try? EXIFMetadata.read(jpeg: jpeg)
                    _ = try? jpeg.withoutMetadata()
                }
            }
        }
    }
}

extension Array where Element == UInt8 {
    func containsSequence(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<($0 + needle.count)]) == needle }
    }
}

@Suite struct JPEGPixelSizeTests {
    @Test func theFrameHeaderGivesWidthAndHeight() throws {
        // JPEGBuilder.frame: 8-bit, 16 × 16.
        #expect(try JPEGFile(JPEGBuilder.file([JPEGBuilder.frame, JPEGBuilder.scan])).pixelSize.map { [$0.width, $0.height] } == [16, 16])
        let progressive = JPEGBuilder.segment(0xC2, [8, 0x01, 0xE0, 0x02, 0x80, 1, 1, 0x11, 0])
        #expect(try JPEGFile(JPEGBuilder.file([progressive, JPEGBuilder.scan])).pixelSize.map { [$0.width, $0.height] } == [640, 480])
        // A Huffman table shares the marker range but is no frame.
        #expect(try JPEGFile(JPEGBuilder.file([JPEGBuilder.segment(0xC4, [0, 0, 0, 0, 0]), JPEGBuilder.scan])).pixelSize == nil)
    }
}
