import Testing
@testable import ParlorMedia

@Suite struct EXIFTests {
    @Test(arguments: [false, true]) func readsLocationDateAndOrientationInEitherByteOrder(bigEndian: Bool) throws {
        let jpeg = try JPEGFile(JPEGBuilder.file([JPEGBuilder.exif(TIFFBuilder.photo(bigEndian: bigEndian)), JPEGBuilder.quantization, JPEGBuilder.frame, JPEGBuilder.scan]))
        let metadata = try EXIFMetadata.read(jpeg: jpeg)
        #expect(metadata.orientation == 6)
        let location = try #require(metadata.location)
        // 48° 51′ 24.24″ N, 2° 17′ 40.08″ E: the Eiffel Tower.
        #expect(abs(location.latitude - 48.8567333) < 1e-6)
        #expect(abs(location.longitude - 2.2944667) < 1e-6)
        let taken = try #require(metadata.takenAt)
        #expect([taken.year, taken.month, taken.day, taken.hour, taken.minute, taken.second] == [2024, 7, 14, 18, 30, 5])
        #expect(taken.utcOffsetMinutes == 120)
    }

    @Test func southAndWestAreNegative() throws {
        let tiff = TIFFBuilder.photo(latitude: ("S", [(33, 1), (51, 1), (3360, 100)]), longitude: ("W", [(151, 1), (12, 1), (5400, 100)]))
        let location = try #require(try EXIFMetadata.read(tiff: tiff).location)
        #expect(location.latitude < -33.85 && location.latitude > -33.86)
        #expect(location.longitude < -151.21 && location.longitude > -151.22)
    }

    @Test func aPhotoWithoutGPSHasNoLocationButKeepsItsDate() throws {
        let metadata = try EXIFMetadata.read(tiff: TIFFBuilder.photo(latitude: nil, longitude: nil))
        #expect(metadata.location == nil)
        #expect(metadata.takenAt?.year == 2024)
    }

    @Test func aFileWithoutEXIFHasNoMetadata() throws {
        let jpeg = try JPEGFile(JPEGBuilder.file([JPEGBuilder.jfif, JPEGBuilder.quantization, JPEGBuilder.frame, JPEGBuilder.scan]))
        #expect(try EXIFMetadata.read(jpeg: jpeg) == EXIFMetadata())
    }

    /// Positions that cannot be on Earth, or that are half missing, are no position at all.
    @Test(arguments: [
        (("N", [(91, 1), (0, 1), (0, 1)]), ("E", [(2, 1)])),  // latitude over 90
        (("N", [(48, 1)]), ("E", [(181, 1)])),  // longitude over 180
        (("N", [(48, 0)]), ("E", [(2, 1)])),  // a zero denominator
        (("X", [(48, 1)]), ("E", [(2, 1)])),  // an unknown reference
        (("N", [(48, 1), (75, 1), (0, 1)]), ("E", [(2, 1)])),  // 75 minutes
    ] as [((String, [(UInt32, UInt32)]), (String, [(UInt32, UInt32)]))])
    func invalidPositionsAreAbsent(latitude: (String, [(UInt32, UInt32)]), longitude: (String, [(UInt32, UInt32)])) throws {
        #expect(try EXIFMetadata.read(tiff: TIFFBuilder.photo(latitude: latitude, longitude: longitude)).location == nil)
    }

    @Test(arguments: ["    :  :     :  :  ", "0000:00:00 00:00:00", "2024:02:30 10:00:00", "2024:13:01 10:00:00", "2024-07-14 18:30:05", "2024:07"])
    func unknownOrImpossibleDatesAreAbsent(text: String) throws {
        #expect(try EXIFMetadata.read(tiff: TIFFBuilder.photo(taken: text)).takenAt == nil)
    }

    @Test func directoriesThatPointInALoopAreNotFollowed() throws {
        // IFD0 points to itself as its EXIF directory: read once, the loop ignored, its orientation kept.
        let tiff = TIFFBuilder(bigEndian: false, directories: [[(0x0112, .short(6)), (0x8769, .directory(0))]]).build()
        #expect(try EXIFMetadata.read(tiff: tiff) == EXIFMetadata(orientation: 6))
    }

    /// A damaged EXIF or GPS directory costs what it holds and nothing else: the orientation (which
    /// stripping keeps, so a sideways phone photo still shows upright) and whatever else is whole survive.
    @Test(arguments: [0x8769, 0x8825] as [UInt16]) func aDamagedSubdirectoryKeepsTheRest(pointer: UInt16) throws {
        var tiff = TIFFBuilder.photo()
        // Point the directory past the end of the block.
        let entry = try #require(Self.entryOffset(of: pointer, in: tiff))
        tiff.replaceSubrange(entry + 8..<entry + 12, with: [0xF0, 0xFF, 0, 0])
        let metadata = try EXIFMetadata.read(tiff: tiff)
        #expect(metadata.orientation == 6)
        if pointer == 0x8825 {
            #expect(metadata.location == nil)
            #expect(metadata.takenAt != nil)
        } else {
            #expect(metadata.takenAt == nil)
            #expect(metadata.location != nil)
        }
        // And the stripped JPEG keeps the orientation.
        let jpeg = JPEGBuilder.file([JPEGBuilder.jfif, JPEGBuilder.exif(tiff), JPEGBuilder.quantization, JPEGBuilder.frame, JPEGBuilder.scan])
        let stripped = try JPEGFile(jpeg).withoutMetadata()
        #expect(try EXIFMetadata.read(jpeg: JPEGFile(stripped)).orientation == 6)
    }

    /// Where IFD0's entry for `tag` starts in a little-endian block.
    static func entryOffset(of tag: UInt16, in tiff: [UInt8]) -> Int? {
        let first = Int(tiff[4]) | Int(tiff[5]) << 8
        let count = Int(tiff[first]) | Int(tiff[first + 1]) << 8
        return (0..<count).map { first + 2 + $0 * 12 }.first { Int(tiff[$0]) | Int(tiff[$0 + 1]) << 8 == Int(tag) }
    }

    @Test func offsetsPastTheEndAreRefusedOrSkipped() throws {
        var tiff = TIFFBuilder.photo()
        // The first directory's offset points past the block.
        tiff[4] = 0xF0
        #expect(throws: MediaError.self) { try EXIFMetadata.read(tiff: tiff) }
        // A block cut short inside the GPS values: the cut entries are skipped, nothing is read past the end.
        let cut = Array(TIFFBuilder.photo().dropLast(30))
        if let metadata = try? EXIFMetadata.read(tiff: cut) { #expect(metadata.location == nil) }
        #expect(throws: MediaError.self) { try EXIFMetadata.read(tiff: [0x49, 0x49, 0x2A]) }
        #expect(throws: MediaError.self) { try EXIFMetadata.read(tiff: Array("not a tiff".utf8)) }
    }

    /// Every prefix and a sweep of single-byte corruptions of a real-shaped block: the reader returns or
    /// throws, and never reads out of bounds (a trap would fail the test run).
    @Test func truncatedAndCorruptedBlocksNeverTrap() {
        let tiff = TIFFBuilder.photo(bigEndian: true)
        for length in 0...tiff.count { _ = try? EXIFMetadata.read(tiff: Array(tiff.prefix(length))) }
        for index in tiff.indices {
            for value: UInt8 in [0x00, 0x01, 0x7F, 0x80, 0xFF] {
                var corrupted = tiff
                corrupted[index] = value
                _ = try? EXIFMetadata.read(tiff: corrupted)
            }
        }
    }
}
