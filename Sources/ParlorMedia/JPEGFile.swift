/// A JPEG file as a list of marker segments (ITU T.81 §B.1), walked without decoding a pixel: what
/// metadata it carries and where, so it can be read or removed.
///
/// Every length comes from the file, so every one is checked against the file's size before it is
/// used; the walk is linear in the file's size and stops at `maxSegments`.
public struct JPEGFile: Sendable {
    /// One marker and what belongs to it.
    public struct Segment: Sendable, Equatable {
        /// The marker's second byte (`0xE1` for APP1, `0xDA` for SOS, …).
        public let marker: UInt8
        /// The whole segment in the file: marker, length and payload — and, for a start of scan, the
        /// entropy-coded data that follows it up to the next marker.
        public let range: Range<Int>
        /// The payload after the two length bytes (empty for markers without one).
        public let payload: Range<Int>

        /// APPn: application data (EXIF, XMP, ICC profiles, JFIF…).
        public var isApplication: Bool { (0xE0...0xEF).contains(marker) }
    }

    public static let startOfImage: UInt8 = 0xD8
    public static let endOfImage: UInt8 = 0xD9
    public static let startOfScan: UInt8 = 0xDA
    public static let comment: UInt8 = 0xFE
    /// More segments than any real camera or editor writes.
    public static let maxSegments = 4096

    public let bytes: [UInt8]
    /// Every segment after SOI, in file order, up to and including EOI.
    public let segments: [Segment]

    public init(_ bytes: [UInt8]) throws(MediaError) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == Self.startOfImage else {
            throw MediaError(.notAnImage, "not a JPEG file (no start-of-image marker)")
        }
        self.bytes = bytes
        var segments: [Segment] = []
        var index = 2
        while true {
            guard segments.count < Self.maxSegments else {
                throw MediaError(.malformed, "more than \(Self.maxSegments) segments")
            }
            let start = index
            // A marker is 0xFF, any number of 0xFF fill bytes, then the marker byte.
            guard index < bytes.count, bytes[index] == 0xFF else {
                throw MediaError(.malformed, "expected a marker at byte \(index)")
            }
            while index < bytes.count && bytes[index] == 0xFF { index += 1 }
            guard index < bytes.count else { throw MediaError(.malformed, "the file ends inside a marker") }
            let marker = bytes[index]
            index += 1
            if marker == Self.endOfImage {
                segments.append(Segment(marker: marker, range: start..<index, payload: index..<index))
                break
            }
            // 0x00 after 0xFF is a stuffed byte, which belongs inside a scan's data, and 0x02–0xBF are
            // reserved: neither starts a segment. Taking one for a segment with a length would swallow
            // the bytes after it — markers included — into a segment kept when the file is stripped.
            guard marker == 0x01 || marker >= 0xC0 else {
                throw MediaError(.malformed, "byte \(start) is 0xFF 0x\(String(marker, radix: 16)), which is not a marker")
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                segments.append(Segment(marker: marker, range: start..<index, payload: index..<index))
                // A file may end without EOI here too (after a length segment, below): stripping the
                // blocks after a restart marker must not turn a file that walked into one that does not.
                if index >= bytes.count { break }
                continue
            }
            guard index + 2 <= bytes.count else { throw MediaError(.malformed, "the file ends inside a segment length") }
            let length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
            guard length >= 2, index + length <= bytes.count else {
                throw MediaError(.malformed, "segment 0x\(String(marker, radix: 16)) at byte \(start) runs past the end")
            }
            let payload = (index + 2)..<(index + length)
            index += length
            if marker == Self.startOfScan {
                // The entropy-coded data runs to the next marker that is not a stuffed zero, a restart
                // marker or fill.
                index = Self.endOfEntropyCodedData(bytes, from: index)
            }
            segments.append(Segment(marker: marker, range: start..<index, payload: payload))
            if index >= bytes.count {
                // Many files in the wild end without EOI; the data is all there.
                break
            }
        }
        guard segments.contains(where: { $0.marker == Self.startOfScan }) else {
            throw MediaError(.malformed, "no image data (no start-of-scan marker)")
        }
        self.segments = segments
    }

    private static func endOfEntropyCodedData(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == 0xFF {
                let next = bytes[index + 1]
                if next != 0x00 && next != 0xFF && !(0xD0...0xD7).contains(next) { return index }
            }
            index += 1
        }
        return bytes.count
    }

    /// The payload of the first APPn segment whose payload starts with `signature`, after it.
    public func applicationData(_ marker: UInt8, signature: [UInt8]) -> ArraySlice<UInt8>? {
        for segment in segments where segment.marker == marker {
            let payload = bytes[segment.payload]
            if payload.starts(with: signature) { return payload.dropFirst(signature.count) }
        }
        return nil
    }

    /// `Exif\0\0`, the start of an APP1 segment that holds EXIF.
    public static let exifSignature: [UInt8] = Array("Exif".utf8) + [0, 0]

    /// The EXIF block (a TIFF structure), if the file has one.
    public var exif: ArraySlice<UInt8>? { applicationData(0xE1, signature: Self.exifSignature) }
}
