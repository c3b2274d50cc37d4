import NIOCore

/// Which end of the connection we are; it decides which frames must be masked (RFC 6455 §5.1).
public enum WebSocketRole: Sendable {
    /// We accepted the connection: every frame we receive must be masked, and ours never are.
    case server
    /// We opened the connection: frames we receive must not be masked, and ours always are.
    case client
}

/// Parses frames out of received bytes. A plain value: the channel handler owns one and feeds it.
///
/// Every header rule that can be checked without context is checked the moment the bytes that carry it
/// arrive, before waiting for the payload: reserved bits, opcodes, masking, control frame rules and the
/// frame size limit. Rules that need the message context (continuations, RSV1 placement) belong to
/// ``WebSocketMessageAssembler``.
public struct WebSocketFrameDecoder: Sendable {
    public let role: WebSocketRole
    /// The largest payload accepted in one frame; larger announces fail with 1009.
    public var maxFrameSize: Int
    /// RSV bits an extension has claimed (0x40 is RSV1, for permessage-deflate).
    public var allowedReservedBits: UInt8

    public init(role: WebSocketRole, maxFrameSize: Int, allowedReservedBits: UInt8 = 0) {
        self.role = role
        self.maxFrameSize = maxFrameSize
        self.allowedReservedBits = allowedReservedBits
    }

    /// A frame's header: everything before the payload.
    struct Header: Sendable, Equatable {
        var first: UInt8
        var opcode: WebSocketOpcode
        var maskingKey: WebSocketMaskingKey?
        /// Bytes of the header on the wire, masking key included.
        var size: Int
        var payloadLength: Int

        var fin: Bool { first & 0x80 != 0 }
        var rsv1: Bool { first & 0x40 != 0 }
    }

    /// Decodes the next whole frame from `buffer`, consuming its bytes, or returns `nil` (consuming
    /// nothing) when more bytes are needed. Throws on the first rule the peer broke.
    public func decode(_ buffer: inout ByteBuffer) throws(WebSocketProtocolError) -> WebSocketFrame? {
        guard let header = try decodeHeader(buffer), buffer.readableBytes >= header.size + header.payloadLength else {
            return nil
        }
        buffer.moveReaderIndex(forwardBy: header.size)
        // Safe: readableBytes was checked just above.
        var payload = buffer.readSlice(length: header.payloadLength)!
        header.maskingKey?.apply(to: &payload)
        let first = header.first
        return WebSocketFrame(
            fin: header.fin, rsv1: header.rsv1, rsv2: first & 0x20 != 0, rsv3: first & 0x10 != 0,
            opcode: header.opcode, maskingKey: header.maskingKey, payload: payload)
    }

    /// Decodes the header of the frame at the start of `buffer` without consuming anything, or returns
    /// `nil` when the header itself is not all there yet. Throws on the first rule the header breaks.
    func decodeHeader(_ buffer: ByteBuffer) throws(WebSocketProtocolError) -> Header? {
        let start = buffer.readerIndex
        guard let first = buffer.getInteger(at: start, as: UInt8.self),
            let second = buffer.getInteger(at: start + 1, as: UInt8.self)
        else { return nil }

        let reserved = first & 0x70
        if reserved & ~allowedReservedBits != 0 {
            throw WebSocketProtocolError(.protocolError, "Reserved bits set without an extension that defines them")
        }
        let opcode = WebSocketOpcode(rawValue: first)
        guard opcode.isDefined else {
            throw WebSocketProtocolError(.protocolError, "Reserved opcode \(opcode)")
        }
        let fin = first & 0x80 != 0
        let masked = second & 0x80 != 0
        switch role {
        case .server where !masked:
            throw WebSocketProtocolError(.protocolError, "Client frames must be masked")
        case .client where masked:
            throw WebSocketProtocolError(.protocolError, "Server frames must not be masked")
        default:
            break
        }

        let shortLength = Int(second & 0x7F)
        if opcode.isControl {
            guard fin else { throw WebSocketProtocolError(.protocolError, "Control frames must not be fragmented") }
            guard shortLength <= 125 else {
                throw WebSocketProtocolError(.protocolError, "Control frame payload over 125 bytes")
            }
        }

        var headerSize = 2
        let payloadLength: Int
        switch shortLength {
        case 126:
            guard let length = buffer.getInteger(at: start + 2, endianness: .big, as: UInt16.self) else { return nil }
            headerSize += 2
            payloadLength = Int(length)
        case 127:
            guard let length = buffer.getInteger(at: start + 2, endianness: .big, as: UInt64.self) else { return nil }
            headerSize += 8
            guard length & (1 << 63) == 0 else {
                throw WebSocketProtocolError(.protocolError, "Payload length has its most significant bit set")
            }
            guard length <= UInt64(maxFrameSize) else {
                throw WebSocketProtocolError(.messageTooBig, "Frame of \(length) bytes exceeds the limit of \(maxFrameSize)")
            }
            payloadLength = Int(length)
        default:
            payloadLength = shortLength
        }
        guard payloadLength <= maxFrameSize else {
            throw WebSocketProtocolError(.messageTooBig, "Frame of \(payloadLength) bytes exceeds the limit of \(maxFrameSize)")
        }

        var maskingKey: WebSocketMaskingKey?
        if masked {
            guard let packed = buffer.getInteger(at: start + headerSize, endianness: .little, as: UInt32.self) else {
                return nil
            }
            maskingKey = WebSocketMaskingKey(packed: packed)
            headerSize += 4
        }
        return Header(first: first, opcode: opcode, maskingKey: maskingKey, size: headerSize, payloadLength: payloadLength)
    }
}
