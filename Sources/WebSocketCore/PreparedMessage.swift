import NIOConcurrencyHelpers
import NIOCore

/// A message encoded once and sent to many connections (a room's new version to every subscriber).
///
/// The server-side frame bytes are built once; every connection writes the same `ByteBuffer`, which
/// shares its storage rather than copying it. Connections that negotiated permessage-deflate without
/// context takeover share one compressed frame per (window, level) as well: compression happens once
/// per message, not once per subscriber.
public final class PreparedMessage: Sendable {
    public let message: WebSocketMessage
    /// The whole frame as a server sends it: unmasked, uncompressed.
    let plainFrame: ByteBuffer
    private let compressedFrames = NIOLockedValueBox<[Int: ByteBuffer]>([:])

    public init(_ message: WebSocketMessage, allocator: ByteBufferAllocator = ByteBufferAllocator()) {
        self.message = message
        plainFrame = WebSocketFrameEncoder.encode(opcode: message.opcode, payload: message.data, allocator: allocator)
    }

    public convenience init(text: String) { self.init(.text(text)) }

    /// The frame bytes for a server connection with these compression parameters.
    func serverFrame(deflate: NegotiatedDeflate?, allocator: ByteBufferAllocator) -> ByteBuffer {
        guard let deflate, deflate.ourNoContextTakeover, message.data.readableBytes >= deflate.minimumMessageSize
        else { return plainFrame }
        let key = deflate.ourWindowBits * 16 + deflate.compressionLevel
        return compressedFrames.withLockedValue { frames in
            if let frame = frames[key] { return frame }
            var frame: ByteBuffer
            do {
                frame = try ZlibThreadCache.forThisThread.compressWithoutContext(
                    message.data, windowBits: deflate.ourWindowBits, level: deflate.compressionLevel,
                    allocator: allocator, reserveHeader: WebSocketFrameEncoder.maxHeaderSize)
            } catch {
                return plainFrame  // compression is optional per message (RFC 7692 §6)
            }
            // Without context takeover an uncompressed frame is always allowed; use it when smaller.
            if frame.readableBytes >= message.data.readableBytes {
                frame = plainFrame
            } else {
                WebSocketFrameEncoder.prependHeader(to: &frame, rsv1: true, opcode: message.opcode)
            }
            frames[key] = frame
            return frame
        }
    }
}
