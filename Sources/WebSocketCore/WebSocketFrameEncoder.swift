import NIOCore

/// Writes frame headers and whole frames. Server frames are never masked; client frames always are.
public enum WebSocketFrameEncoder {
    /// The largest header: 2 bytes, an 8-byte extended length and a 4-byte masking key.
    public static let maxHeaderSize = 14

    /// The size of a header for a payload of `length` bytes.
    public static func headerSize(payloadLength length: Int, masked: Bool) -> Int {
        let lengthBytes = length <= 125 ? 0 : (length <= 0xFFFF ? 2 : 8)
        return 2 + lengthBytes + (masked ? 4 : 0)
    }

    /// Appends a frame header to `buffer`.
    public static func writeHeader(
        into buffer: inout ByteBuffer, fin: Bool = true, rsv1: Bool = false, opcode: WebSocketOpcode,
        payloadLength length: Int, maskingKey: WebSocketMaskingKey? = nil
    ) {
        var first = opcode.rawValue
        if fin { first |= 0x80 }
        if rsv1 { first |= 0x40 }
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        buffer.writeInteger(first)
        if length <= 125 {
            buffer.writeInteger(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            buffer.writeInteger(maskBit | 126)
            buffer.writeInteger(UInt16(length), endianness: .big)
        } else {
            buffer.writeInteger(maskBit | 127)
            buffer.writeInteger(UInt64(length), endianness: .big)
        }
        if let maskingKey {
            buffer.writeInteger(maskingKey.packed, endianness: .little)
        }
    }

    /// Writes a header for the readable bytes of `buffer` into the space reserved in front of them (at
    /// least ``maxHeaderSize`` bytes before the reader index), so header and payload form one buffer
    /// without copying the payload.
    public static func prependHeader(
        to buffer: inout ByteBuffer, fin: Bool = true, rsv1: Bool = false, opcode: WebSocketOpcode
    ) {
        let length = buffer.readableBytes
        let size = headerSize(payloadLength: length, masked: false)
        precondition(buffer.readerIndex >= size, "no room reserved for the frame header")
        var header = ByteBuffer()
        header.reserveCapacity(size)
        writeHeader(into: &header, fin: fin, rsv1: rsv1, opcode: opcode, payloadLength: length)
        let start = buffer.readerIndex - size
        buffer.setBuffer(header, at: start)
        buffer.moveReaderIndex(to: start)
    }

    /// Encodes a whole frame into one new buffer; the payload is masked in the copy when a key is given.
    public static func encode(
        fin: Bool = true, rsv1: Bool = false, opcode: WebSocketOpcode, payload: ByteBuffer,
        maskingKey: WebSocketMaskingKey? = nil, allocator: ByteBufferAllocator
    ) -> ByteBuffer {
        var payload = payload
        let length = payload.readableBytes
        var out = allocator.buffer(capacity: headerSize(payloadLength: length, masked: maskingKey != nil) + length)
        writeHeader(into: &out, fin: fin, rsv1: rsv1, opcode: opcode, payloadLength: length, maskingKey: maskingKey)
        let payloadStart = out.writerIndex
        out.writeBuffer(&payload)
        if let maskingKey {
            let offset = payloadStart - out.readerIndex
            out.withUnsafeMutableReadableBytes { bytes in
                maskingKey.apply(to: UnsafeMutableRawBufferPointer(rebasing: bytes[offset...]))
            }
        }
        return out
    }

    /// The payload of a close frame: the code in network order, then the UTF-8 reason.
    public static func closePayload(code: WebSocketCloseCode, reason: String, allocator: ByteBufferAllocator) -> ByteBuffer {
        var reasonBytes = Array(reason.utf8)
        // A control frame carries at most 125 bytes; keep the reason within 123 on a character boundary.
        if reasonBytes.count > 123 {
            var cut = 123
            while cut > 0 && (reasonBytes[cut] & 0xC0) == 0x80 { cut -= 1 }
            reasonBytes = Array(reasonBytes[..<cut])
        }
        var out = allocator.buffer(capacity: 2 + reasonBytes.count)
        out.writeInteger(code.rawValue, endianness: .big)
        out.writeBytes(reasonBytes)
        return out
    }
}
