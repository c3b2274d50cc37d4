import CZlib

/// zlib's raw inflate driven the plain way, with no size limit of its own: what the product's
/// `ZlibInflater` (with its output limit, its buffer growth and its trailer handling) is compared
/// against. Like the product, it treats bytes after the end of a deflate stream as corrupt.
public final class ReferenceInflater {
    public enum Outcome: Equatable {
        /// All input consumed; `ended` when the deflate stream has ended.
        case inflated(ended: Bool)
        /// The output passed the cap before the input was used up: bigger than any limit under test.
        case overCap
        /// Not a valid raw deflate stream (or data after its end).
        case corrupt
    }

    private let stream: UnsafeMutablePointer<z_stream>
    public private(set) var ended = false
    /// Where zlib writes before the bytes are appended to the caller's output; kept between calls.
    private var chunk = [UInt8](repeating: 0, count: 16 * 1024)

    public init(windowBits: Int32 = 15) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let result = parlor_inflate_init_raw(stream, windowBits)
        precondition(result == Z_OK, "inflateInit2 failed: \(result)")
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    public func reset() {
        inflateReset(stream)
        ended = false
    }

    /// Inflates `input`, appending to `output`, until the input is used up or `output` holds more than `cap` bytes.
    public func inflate(_ input: some Collection<UInt8>, into output: inout [UInt8], cap: Int) -> Outcome {
        let bytes = Array(input)
        guard !bytes.isEmpty else { return .inflated(ended: ended) }
        if ended { return .corrupt }
        return bytes.withUnsafeBufferPointer { inBytes -> Outcome in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: inBytes.baseAddress)
            stream.pointee.avail_in = uInt(inBytes.count)
            defer {
                stream.pointee.next_in = nil
                stream.pointee.next_out = nil
            }
            while true {
                let (result, produced) = chunk.withUnsafeMutableBufferPointer { outBytes -> (Int32, Int) in
                    stream.pointee.next_out = outBytes.baseAddress
                    stream.pointee.avail_out = uInt(outBytes.count)
                    let result = CZlib.inflate(stream, Z_NO_FLUSH)
                    return (result, outBytes.count - Int(stream.pointee.avail_out))
                }
                output.append(contentsOf: chunk[..<produced])
                if output.count > cap { return .overCap }
                switch result {
                case Z_STREAM_END:
                    ended = true
                    return stream.pointee.avail_in == 0 ? .inflated(ended: true) : .corrupt
                case Z_OK, Z_BUF_ERROR:
                    if stream.pointee.avail_in == 0 && produced < chunk.count { return .inflated(ended: false) }
                    // zlib neither consumed input nor produced output although both had room.
                    precondition(result == Z_OK || produced > 0, "zlib made no progress")
                default:
                    return .corrupt
                }
            }
        }
    }
}

/// The four bytes a sync flush ends with, which permessage-deflate strips from every message (RFC 7692 §7.2.1).
public let syncFlushTrailer: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]
