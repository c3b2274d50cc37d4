import CZlib
import NIOCore

/// The four bytes a sync flush ends with; permessage-deflate strips them from every message and the
/// receiver puts them back (RFC 7692 §7.2.1, §7.2.2).
let deflateTrailer: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

/// Why a compressed message could not be inflated.
enum InflateFailure: Error, Equatable {
    /// The output would exceed the decompressed size limit (a zip bomb, or just too big).
    case tooBig(limit: Int)
    /// The bytes are not a valid raw deflate stream.
    case corrupt(String)
}

/// A raw-deflate compressor (zlib) for one direction of one connection, or shared across messages when
/// context takeover is off. Not thread-safe: owned by one event loop.
final class ZlibDeflater {
    private let stream: UnsafeMutablePointer<z_stream>
    let windowBits: Int

    /// - Parameters:
    ///   - windowBits: 9...15. zlib cannot produce an 8-bit window (it silently uses 9), which is why
    ///     negotiation never agrees to compress with 8.
    init(windowBits: Int, level: Int32 = 6, memoryLevel: Int32 = 8) throws(WebSocketCompressionError) {
        precondition((9...15).contains(windowBits), "deflate window bits out of range")
        self.windowBits = windowBits
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let result = parlor_deflate_init_raw(stream, level, Int32(windowBits), memoryLevel)
        guard result == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw WebSocketCompressionError(reason: "deflateInit2 failed (\(result))")
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Forgets the sliding window (no context takeover).
    func reset() { deflateReset(stream) }

    /// Compresses one message with a sync flush and strips the trailing `00 00 FF FF`.
    func compress(_ input: ByteBuffer, allocator: ByteBufferAllocator, reserveHeader: Int = 0) -> ByteBuffer {
        let inputCount = input.readableBytes
        var output = allocator.buffer(capacity: reserveHeader + Int(deflateBound(stream, UInt(inputCount))) + 16)
        output.moveWriterIndex(forwardBy: reserveHeader)
        output.moveReaderIndex(forwardBy: reserveHeader)
        input.withUnsafeReadableBytes { inBytes in
            stream.pointee.next_in = UnsafeMutablePointer(
                mutating: inBytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = uInt(inBytes.count)
            repeat {
                if output.writableBytes < 64 { output.reserveCapacity(minimumWritableBytes: max(256, output.capacity)) }
                let produced = output.withUnsafeMutableWritableBytes { outBytes -> Int in
                    stream.pointee.next_out = outBytes.baseAddress?.assumingMemoryBound(to: Bytef.self)
                    stream.pointee.avail_out = uInt(outBytes.count)
                    _ = deflate(stream, Z_SYNC_FLUSH)
                    return outBytes.count - Int(stream.pointee.avail_out)
                }
                output.moveWriterIndex(forwardBy: produced)
                // A sync flush is complete when deflate left output space unused.
            } while stream.pointee.avail_out == 0 || stream.pointee.avail_in != 0
            stream.pointee.next_in = nil
            stream.pointee.next_out = nil
        }
        // The sync flush always ends with an empty stored block: 00 00 FF FF.
        if output.readableBytes >= 4 {
            output.moveWriterIndex(to: output.writerIndex - 4)
        }
        return output
    }
}

/// A raw-deflate decompressor (zlib) for one direction of one connection.
final class ZlibInflater {
    private let stream: UnsafeMutablePointer<z_stream>
    /// Set once the peer ended a deflate stream with a final block; the rest of the message must be empty.
    private var streamEnded = false

    init(windowBits: Int) throws(WebSocketCompressionError) {
        // zlib's inflater accepts 8...15; a bigger window than the peer used is always safe.
        let bits = Int32(min(15, max(9, windowBits)))
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let result = parlor_inflate_init_raw(stream, bits)
        guard result == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw WebSocketCompressionError(reason: "inflateInit2 failed (\(result))")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Forgets the sliding window (the peer uses no context takeover) and any stream end.
    func reset() {
        inflateReset(stream)
        streamEnded = false
    }

    /// Inflates `input`, appending to `output`, never letting `output` grow past `limit` readable bytes.
    func inflate(_ input: ByteBuffer, into output: inout ByteBuffer, limit: Int) throws(InflateFailure) {
        try input.withUnsafeReadableBytes { bytes throws(InflateFailure) in
            try inflate(bytes, into: &output, limit: limit)
        }
    }

    /// Inflates the end-of-message trailer that the sender stripped.
    func finishMessage(into output: inout ByteBuffer, limit: Int) throws(InflateFailure) {
        if streamEnded { return }
        let result = deflateTrailer.withUnsafeBytes { bytes in
            Result { () throws(InflateFailure) in try inflate(bytes, into: &output, limit: limit) }
        }
        try result.get()
    }

    private func inflate(_ bytes: UnsafeRawBufferPointer, into output: inout ByteBuffer, limit: Int) throws(InflateFailure) {
        guard bytes.count > 0 else { return }
        if streamEnded { throw .corrupt("data after the end of the deflate stream") }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(bytes.count)
        defer {
            stream.pointee.next_in = nil
            stream.pointee.next_out = nil
        }
        while true {
            let room = limit - output.readableBytes
            // One byte beyond the limit tells "exactly at the limit" apart from "over it".
            let want = min(room + 1, max(1024, min(64 * 1024, bytes.count * 4)))
            if output.writableBytes < want { output.reserveCapacity(minimumWritableBytes: want) }
            var result: Int32 = Z_OK
            let produced = output.withUnsafeMutableWritableBytes { outBytes -> Int in
                let space = min(outBytes.count, room + 1)
                stream.pointee.next_out = outBytes.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = uInt(space)
                result = CZlib.inflate(stream, Z_SYNC_FLUSH)
                return space - Int(stream.pointee.avail_out)
            }
            output.moveWriterIndex(forwardBy: produced)
            if output.readableBytes > limit { throw .tooBig(limit: limit) }
            switch result {
            case Z_STREAM_END:
                streamEnded = true
                if stream.pointee.avail_in != 0 { throw .corrupt("data after the end of the deflate stream") }
                return
            case Z_OK:
                if stream.pointee.avail_in == 0 && stream.pointee.avail_out != 0 { return }
            case Z_BUF_ERROR:
                // No progress possible: either all input is consumed, or the output limit is reached.
                if stream.pointee.avail_in == 0 { return }
                if produced == 0 { throw .tooBig(limit: limit) }
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "error \(result)"
                throw .corrupt(message)
            }
        }
    }
}

/// permessage-deflate could not be set up.
public struct WebSocketCompressionError: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { "permessage-deflate: \(reason)" }
}
