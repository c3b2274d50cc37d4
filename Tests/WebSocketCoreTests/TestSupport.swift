import NIOCore
@testable import WebSocketCore

/// Builds a ByteBuffer from hex like "81 05 48 65 6c 6c 6f".
func hexBuffer(_ hex: String) -> ByteBuffer {
    let digits = hex.filter { !$0.isWhitespace }
    var bytes: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        bytes.append(UInt8(digits[index..<next], radix: 16)!)
        index = next
    }
    return ByteBuffer(bytes: bytes)
}

func hexString(_ buffer: ByteBuffer) -> String {
    buffer.readableBytesView.map { byte in
        let s = String(byte, radix: 16)
        return s.count == 1 ? "0" + s : s
    }.joined(separator: " ")
}

/// A masked client frame, as a browser would send it.
func clientFrame(
    _ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true, rsv1: Bool = false,
    key: WebSocketMaskingKey = WebSocketMaskingKey((0x37, 0xfa, 0x21, 0x3d))
) -> ByteBuffer {
    WebSocketFrameEncoder.encode(
        fin: fin, rsv1: rsv1, opcode: opcode, payload: ByteBuffer(bytes: payload), maskingKey: key,
        allocator: ByteBufferAllocator())
}

func clientFrame(_ opcode: WebSocketOpcode, text: String, fin: Bool = true) -> ByteBuffer {
    clientFrame(opcode, Array(text.utf8), fin: fin)
}

func closePayload(_ code: UInt16, _ reason: String = "") -> [UInt8] {
    [UInt8(code >> 8), UInt8(code & 0xff)] + Array(reason.utf8)
}
