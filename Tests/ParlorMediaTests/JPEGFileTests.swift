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

    @Test func brokenFilesAreRefusedWithAReason() {
        #expect(throws: MediaError(.notAnImage, "not a JPEG file (no start-of-image marker)")) { try JPEGFile(Array("hello".utf8)) }
        // A segment whose length runs past the end.
        #expect(throws: MediaError.self) { try JPEGFile([0xFF, 0xD8, 0xFF, 0xE1, 0x40, 0x00, 1, 2, 3]) }
        // No image data at all.
        #expect(throws: MediaError.self) { try JPEGFile(JPEGBuilder.file([JPEGBuilder.jfif])) }
        // Garbage where a marker should be.
        #expect(throws: MediaError.self) { try JPEGFile([0xFF, 0xD8, 0x00, 0x01, 0x02, 0x03]) }
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
