import NIOCore
import Testing
@testable import WebSocketCore

@Suite struct FrameEncoderTests {
    let allocator = ByteBufferAllocator()

    @Test func encodesUnmaskedHelloExactly() {
        let frame = WebSocketFrameEncoder.encode(opcode: .text, payload: ByteBuffer(string: "Hello"), allocator: allocator)
        #expect(hexString(frame) == "81 05 48 65 6c 6c 6f")
    }

    @Test func encodesTheRFCMaskedHelloExactly() {
        let frame = WebSocketFrameEncoder.encode(
            opcode: .text, payload: ByteBuffer(string: "Hello"), maskingKey: WebSocketMaskingKey((0x37, 0xfa, 0x21, 0x3d)),
            allocator: allocator)
        #expect(hexString(frame) == "81 85 37 fa 21 3d 7f 9f 4d 51 58")
    }

    @Test func encodesExtendedLengths() {
        let medium = WebSocketFrameEncoder.encode(opcode: .binary, payload: ByteBuffer(repeating: 0, count: 256), allocator: allocator)
        #expect(hexString(medium.getSlice(at: 0, length: 4)!) == "82 7e 01 00")
        let large = WebSocketFrameEncoder.encode(opcode: .binary, payload: ByteBuffer(repeating: 0, count: 65536), allocator: allocator)
        #expect(hexString(large.getSlice(at: 0, length: 10)!) == "82 7f 00 00 00 00 00 01 00 00")
    }

    @Test func setsRSV1AndClearsFin() {
        let frame = WebSocketFrameEncoder.encode(fin: false, rsv1: true, opcode: .text, payload: ByteBuffer(), allocator: allocator)
        #expect(hexString(frame) == "41 00")
    }

    @Test func prependsHeaderIntoReservedSpace() {
        var buffer = ByteBuffer(repeating: 0xAA, count: 14 + 3)
        buffer.moveReaderIndex(forwardBy: 14)
        WebSocketFrameEncoder.prependHeader(to: &buffer, rsv1: true, opcode: .text)
        #expect(hexString(buffer) == "c1 03 aa aa aa")
    }

    @Test func closePayloadKeepsReasonWithin123BytesOnACharacterBoundary() {
        let reason = String(repeating: "é", count: 100)  // 200 bytes of 2-byte characters
        let payload = WebSocketFrameEncoder.closePayload(code: .goingAway, reason: reason, allocator: allocator)
        #expect(payload.readableBytes <= 125)
        #expect(payload.getInteger(at: 0, as: UInt16.self) == 1001)
        let text = payload.getString(at: 2, length: payload.readableBytes - 2)
        #expect(text == String(repeating: "é", count: 61))
    }
}

@Suite struct MaskingTests {
    private func naive(_ bytes: [UInt8], _ key: [UInt8], offset: Int) -> [UInt8] {
        bytes.enumerated().map { $0.element ^ key[($0.offset + offset) & 3] }
    }

    @Test func wordAtATimeMatchesBytewiseForEveryLengthAndPhase() {
        let key = WebSocketMaskingKey((0x12, 0x34, 0x56, 0x78))
        for length in 0...80 {
            for offset in 0..<4 {
                let input = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
                var buffer = ByteBuffer(bytes: input)
                key.apply(to: &buffer, offset: offset)
                #expect(Array(buffer.readableBytesView) == naive(input, key.bytes, offset: offset), "length \(length) offset \(offset)")
            }
        }
    }

    @Test func maskingTwiceRestoresAndLargeBuffersMatch() {
        let key = WebSocketMaskingKey(packed: 0xDEADBEEF)
        let input = (0..<100_003).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var buffer = ByteBuffer(bytes: input)
        key.apply(to: &buffer)
        #expect(Array(buffer.readableBytesView) == naive(input, key.bytes, offset: 0))
        key.apply(to: &buffer)
        #expect(Array(buffer.readableBytesView) == input)
    }

    /// Masking a message in two pieces at any split point equals masking it whole.
    @Test func offsetContinuesTheKeyPhase() {
        let key = WebSocketMaskingKey((1, 2, 3, 4))
        let input = (0..<37).map { UInt8($0) }
        var whole = ByteBuffer(bytes: input)
        key.apply(to: &whole)
        for split in 0...input.count {
            var a = ByteBuffer(bytes: input[..<split])
            var b = ByteBuffer(bytes: input[split...])
            key.apply(to: &a, offset: 0)
            key.apply(to: &b, offset: split)
            #expect(Array(a.readableBytesView) + Array(b.readableBytesView) == Array(whole.readableBytesView))
        }
    }
}
