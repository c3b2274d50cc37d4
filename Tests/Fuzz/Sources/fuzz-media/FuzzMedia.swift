import FuzzSupport
@testable import ParlorMedia

// Fuzzes what Parlor does with an uploaded image: `ImageFormat.sniff`, the JPEG segment walk
// (`JPEGFile`), the EXIF reader (`EXIFMetadata`, over the file's APP1 block and over the input read as a
// TIFF block of its own) and `withoutMetadata()`.
//
// Input: the file's bytes (no choice bytes: the seeds are real photos).
//
// Checked on every input:
// - the signature decides the format, and nothing else does;
// - a walk that succeeds honours every length in the file: segments follow each other from byte 2 with
//   no gap or overlap, each is fill bytes, its marker, a length that is its payload's size plus two and
//   that payload (a start of scan then entropy-coded data in which every 0xFF is stuffed, fill or a
//   restart marker), all within the file; it ends at EOI or at the file's end, and holds a start of scan;
// - the EXIF values read are within their ranges (orientation 1–8, a real date, a position on Earth);
// - `withoutMetadata()`'s output walks again, holds no APPn block but JFIF, an ICC profile or Adobe's,
//   no comment, and at most one APP1: the orientation block, with the original's orientation (none
//   when it was 1 or unreadable) and nothing else readable in it; every segment that decoding needs
//   (tables, frame, scans and their data) is there byte for byte, in order (fill bytes aside);
//   stripping it again changes nothing.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMedia(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    checkSniff(bytes)
    if let metadata = try? EXIFMetadata.read(tiff: bytes) { checkRanges(metadata) }

    let file: JPEGFile
    do {
        file = try JPEGFile(bytes)
    } catch {
        require(!error.reason.isEmpty, "a media error without a reason")
        return 0
    }
    checkWalk(file)
    let metadata = try? EXIFMetadata.read(jpeg: file)
    if let metadata { checkRanges(metadata) }

    let stripped: [UInt8]
    do {
        stripped = try file.withoutMetadata()
    } catch {
        fatalError("a file that walks could not be stripped: \(error)")
    }
    checkStripped(stripped, of: file, orientation: metadata?.orientation)
    return 0
}

let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

func checkSniff(_ bytes: [UInt8]) {
    let format = ImageFormat.sniff(bytes)
    let expected: ImageFormat? =
        bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF
        ? .jpeg : bytes.starts(with: pngSignature) ? .png : nil
    require(format == expected, "sniffed \(String(describing: format)) for a file starting \(bytes.prefix(8))")
}

/// Whether `marker` stands alone (no length follows it): TEM, the restart markers, EOI.
func standsAlone(_ marker: UInt8) -> Bool {
    marker == 0x01 || (0xD0...0xD7).contains(marker) || marker == 0xD9
}

/// Every length the walk took from the file, read again off the bytes.
func checkWalk(_ file: JPEGFile) {
    let bytes = file.bytes
    require(bytes.count >= 4 && bytes[0] == 0xFF && bytes[1] == 0xD8, "a walk of a file without SOI")
    require(!file.segments.isEmpty && file.segments.count <= JPEGFile.maxSegments, "\(file.segments.count) segments")
    require(file.segments.contains { $0.marker == 0xDA }, "a walk without a start of scan")
    var position = 2
    for (index, segment) in file.segments.enumerated() {
        let range = segment.range
        require(range.lowerBound == position, "segment \(index) starts at \(range.lowerBound), not \(position)")
        require(range.upperBound <= bytes.count, "segment \(index) ends past the file")
        require(segment.payload.lowerBound >= range.lowerBound && segment.payload.upperBound <= range.upperBound,
                "segment \(index)'s payload lies outside it")
        if standsAlone(segment.marker) {
            require(segment.payload.isEmpty && segment.payload.lowerBound == range.upperBound, "a standalone marker with a payload")
            let markerAt = range.upperBound - 1
            require(bytes[markerAt] == segment.marker, "segment \(index) is not its marker")
            require(bytes[range.lowerBound..<markerAt].allSatisfy { $0 == 0xFF } && markerAt > range.lowerBound, "segment \(index) does not start with 0xFF")
        } else {
            let markerAt = segment.payload.lowerBound - 3
            require(markerAt > range.lowerBound && bytes[markerAt] == segment.marker, "segment \(index) is not its marker")
            require(bytes[range.lowerBound..<markerAt].allSatisfy { $0 == 0xFF }, "segment \(index) does not start with 0xFF")
            let length = Int(bytes[markerAt + 1]) << 8 | Int(bytes[markerAt + 2])
            require(length == segment.payload.count + 2, "segment \(index) says \(length) bytes; its payload has \(segment.payload.count)")
            if segment.marker == 0xDA {
                for i in segment.payload.upperBound..<range.upperBound where bytes[i] == 0xFF && i + 1 < bytes.count {
                    let next = bytes[i + 1]
                    require(next == 0x00 || next == 0xFF || (0xD0...0xD7).contains(next), "entropy-coded data holds marker \(next)")
                }
            } else {
                require(range.upperBound == segment.payload.upperBound, "segment \(index) runs past its length")
            }
        }
        position = range.upperBound
    }
    if let last = file.segments.last, last.marker != 0xD9 {
        require(position == bytes.count, "the walk stopped at byte \(position) of \(bytes.count) without EOI")
    }
    require(file.segments.dropLast().allSatisfy { $0.marker != 0xD9 }, "segments after EOI")
}

func checkRanges(_ metadata: EXIFMetadata) {
    if let orientation = metadata.orientation {
        require((1...8).contains(orientation), "orientation \(orientation)")
    }
    if let location = metadata.location {
        require((-90...90).contains(location.latitude) && (-180...180).contains(location.longitude), "position \(location)")
    }
    if let date = metadata.takenAt {
        require((1...12).contains(date.month) && (1...31).contains(date.day) && (0...23).contains(date.hour), "date \(date)")
        if let offset = date.utcOffsetMinutes { require(abs(offset) <= 14 * 60 + 59, "UTC offset \(offset)") }
    }
}

/// The kinds of application block a stripped file may keep, by their signature.
let keptApplicationBlocks: [(marker: UInt8, signature: [UInt8])] = [
    (0xE0, Array("JFIF".utf8) + [0]), (0xE2, Array("ICC_PROFILE".utf8) + [0]), (0xEE, Array("Adobe".utf8)),
]

/// The bytes a decoder needs (every segment but application blocks and comments), joined, with each
/// run of 0xFF bytes read as one. Joined, because where the walk puts a boundary depends on what
/// precedes it: fill bytes, or a restart marker, after a scan's data are read as part of that data, so
/// once a block between them is gone the walk of the stripped file puts them in the scan; and fill is
/// any number of 0xFF bytes before a marker.
func imageBytes(_ file: JPEGFile) -> [UInt8] {
    var out: [UInt8] = []
    for segment in file.segments where !(0xE0...0xEF).contains(segment.marker) && segment.marker != 0xFE {
        for byte in file.bytes[segment.range] where !(byte == 0xFF && out.last == 0xFF) {
            out.append(byte)
        }
    }
    return out
}

func checkStripped(_ stripped: [UInt8], of original: JPEGFile, orientation: Int?) {
    let file: JPEGFile
    do {
        file = try JPEGFile(stripped)
    } catch {
        fatalError("the stripped file does not walk: \(error)")
    }
    checkWalk(file)
    var app1 = 0
    for segment in file.segments {
        let payload = stripped[segment.payload]
        switch segment.marker {
        case 0xFE:
            fatalError("a comment survived")
        case 0xE1:
            app1 += 1
            require(payload.starts(with: JPEGFile.exifSignature), "an APP1 block that is not the orientation (XMP?) survived")
        case 0xE0...0xEF:
            require(
                keptApplicationBlocks.contains { $0.marker == segment.marker && payload.starts(with: $0.signature) },
                "APP\(segment.marker - 0xE0) block \(payload.prefix(12)) survived")
        default:
            break
        }
    }
    let expected = orientation == 1 ? nil : orientation
    require(app1 == (expected == nil ? 0 : 1), "\(app1) APP1 blocks for orientation \(String(describing: expected))")
    if let expected {
        require(file.exif.map(Array.init) == Array(JPEGFile.orientationBlock(expected).dropFirst(10)), "the EXIF block is not orientation \(expected) alone")
    }
    let metadata = try? EXIFMetadata.read(jpeg: file)
    require(metadata == EXIFMetadata(orientation: expected), "the stripped file reads \(String(describing: metadata)); expected orientation \(String(describing: expected))")

    require(sameBytes(imageBytes(file), imageBytes(original)), "the image's own segments changed")
    do {
        let again = try file.withoutMetadata()
        require(sameBytes(again, stripped), "stripping a stripped file changed it")
    } catch {
        fatalError("a stripped file could not be stripped again: \(error)")
    }
}
