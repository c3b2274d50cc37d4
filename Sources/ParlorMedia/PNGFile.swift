/// A PNG file as its list of chunks (PNG, ISO/IEC 15948 §5.3), walked without inflating a pixel: what
/// it holds and where, so metadata can be found and removed.
///
/// Every length comes from the file, so every one is checked against the file's size before it is
/// used. The walk is linear in the file's size and stops at `maxChunks`. CRCs are not checked: a
/// decoder checks them, and a damaged chunk is not a danger to us, only a broken picture.
public struct PNGFile: Sendable {
    /// One chunk: its four-letter type and where it lies.
    public struct Chunk: Sendable, Equatable {
        /// `IHDR`, `IDAT`, `tEXt`…
        public let type: String
        /// The whole chunk in the file: length, type, data and CRC.
        public let range: Range<Int>
        /// The data between the type and the CRC.
        public let data: Range<Int>

        /// A lowercase first letter: a decoder may skip it (everything but the image's structure).
        public var isAncillary: Bool { type.utf8.first.map { $0 & 0x20 != 0 } ?? false }
    }

    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// More chunks than any real encoder writes.
    public static let maxChunks = 10_000
    /// The spec's bound on one chunk's data (2³¹ − 1).
    static let maxChunkLength = Int(Int32.max)

    public let bytes: [UInt8]
    /// Every chunk in file order, from `IHDR` to `IEND`.
    public let chunks: [Chunk]

    public init(_ bytes: [UInt8]) throws(MediaError) {
        guard bytes.starts(with: Self.signature) else {
            throw MediaError(.notAnImage, "not a PNG file (no PNG signature)")
        }
        self.bytes = bytes
        var chunks: [Chunk] = []
        var index = Self.signature.count
        while true {
            guard chunks.count < Self.maxChunks else { throw MediaError(.malformed, "more than \(Self.maxChunks) chunks") }
            guard index + 8 <= bytes.count else { throw MediaError(.malformed, "the file ends inside a chunk header at byte \(index)") }
            let length = Int(bytes[index]) << 24 | Int(bytes[index + 1]) << 16 | Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            let typeBytes = bytes[(index + 4)..<(index + 8)]
            guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0 & ~0x20) }) else {
                throw MediaError(.malformed, "chunk at byte \(index) has no four-letter type")
            }
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard length <= Self.maxChunkLength, index + 12 + length <= bytes.count else {
                throw MediaError(.malformed, "chunk \(type) at byte \(index) runs past the end")
            }
            let data = (index + 8)..<(index + 8 + length)
            chunks.append(Chunk(type: type, range: index..<(data.upperBound + 4), data: data))
            index = data.upperBound + 4
            if type == "IEND" { break }
        }
        guard chunks.first?.type == "IHDR", chunks.first?.data.count == 13 else {
            throw MediaError(.malformed, "the first chunk is not a 13-byte IHDR")
        }
        guard chunks.contains(where: { $0.type == "IDAT" }) else {
            throw MediaError(.malformed, "no image data (no IDAT chunk)")
        }
        self.chunks = chunks
    }

    /// Width and height in pixels, from `IHDR`.
    public var pixelSize: (width: Int, height: Int) {
        let data = chunks[0].data.lowerBound
        let read = { (at: Int) in
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        return (read(data), read(data + 4))
    }
}
