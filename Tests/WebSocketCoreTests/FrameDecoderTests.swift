import Foundation
import NIOCore
import Testing
@testable import WebSocketCore

@Suite struct FrameDecoderTests {
    let server = WebSocketFrameDecoder(role: .server, maxFrameSize: 1 << 20)
    let client = WebSocketFrameDecoder(role: .client, maxFrameSize: 1 << 20)

    /// RFC 6455 §5.7: a single-frame masked text message "Hello".
    @Test func decodesTheRFCMaskedHello() throws {
        var bytes = hexBuffer("81 85 37 fa 21 3d 7f 9f 4d 51 58")
        let frame = try #require(try server.decode(&bytes))
        #expect(frame.fin && frame.opcode == .text)
        #expect(String(buffer: frame.payload) == "Hello")
        #expect(frame.maskingKey == WebSocketMaskingKey((0x37, 0xfa, 0x21, 0x3d)))
        #expect(bytes.readableBytes == 0)
    }

    /// RFC 6455 §5.7: an unmasked "Hello" from a server, and a fragmented one.
    @Test func decodesUnmaskedServerFramesAndFragments() throws {
        var bytes = hexBuffer("81 05 48 65 6c 6c 6f 01 03 48 65 6c 80 02 6c 6f")
        let whole = try #require(try client.decode(&bytes))
        #expect(String(buffer: whole.payload) == "Hello")
        let first = try #require(try client.decode(&bytes))
        #expect(!first.fin && first.opcode == .text && String(buffer: first.payload) == "Hel")
        let last = try #require(try client.decode(&bytes))
        #expect(last.fin && last.opcode == .continuation && String(buffer: last.payload) == "lo")
    }

    @Test(arguments: [0, 1, 125, 126, 127, 65535, 65536, 200_000])
    func decodesAllThreeLengthForms(length: Int) throws {
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0) }
        var bytes = clientFrame(.binary, payload)
        let headerSize = bytes.readableBytes - length
        #expect(headerSize == (length <= 125 ? 6 : length <= 65535 ? 8 : 14))
        let frame = try #require(try server.decode(&bytes))
        #expect(Array(frame.payload.readableBytesView) == payload)
    }

    @Test func waitsForWholeFrameWithoutConsuming() throws {
        let full = clientFrame(.text, text: "Hello, world")
        for cut in 0..<full.readableBytes {
            var partial = full.getSlice(at: 0, length: cut)!
            #expect(try server.decode(&partial) == nil)
            #expect(partial.readableBytes == cut)
        }
    }

    private func expectFailure(_ hex: String, role: WebSocketRole = .server, _ code: WebSocketCloseCode, maxFrameSize: Int = 1 << 20, allowedReservedBits: UInt8 = 0) {
        var bytes = hexBuffer(hex)
        let decoder = WebSocketFrameDecoder(role: role, maxFrameSize: maxFrameSize, allowedReservedBits: allowedReservedBits)
        #expect(throws: WebSocketProtocolError.self) { try decoder.decode(&bytes) }
        do { _ = try decoder.decode(&bytes) } catch { #expect(error.closeCode == code) }
    }

    @Test func rejectsUnmaskedClientFrames() {
        expectFailure("81 05 48 65 6c 6c 6f", .protocolError)
    }

    @Test func rejectsMaskedServerFrames() {
        expectFailure("81 85 37 fa 21 3d 7f 9f 4d 51 58", role: .client, .protocolError)
    }

    @Test func rejectsReservedBitsUnlessAnExtensionClaimsThem() throws {
        expectFailure("c1 80 00 00 00 00", .protocolError)  // RSV1 without deflate
        expectFailure("a1 80 00 00 00 00", .protocolError, allowedReservedBits: 0x40)  // RSV2
        expectFailure("91 80 00 00 00 00", .protocolError, allowedReservedBits: 0x40)  // RSV3
        var bytes = hexBuffer("c1 80 00 00 00 00")
        let deflating = WebSocketFrameDecoder(role: .server, maxFrameSize: 1024, allowedReservedBits: 0x40)
        let frame = try #require(try deflating.decode(&bytes))
        #expect(frame.rsv1)
    }

    @Test(arguments: [0x3, 0x4, 0x5, 0x6, 0x7, 0xB, 0xC, 0xD, 0xE, 0xF])
    func rejectsReservedOpcodes(opcode: UInt8) {
        expectFailure(String(format: "%02x 80 00 00 00 00", 0x80 | opcode), .protocolError)
    }

    @Test func rejectsOversizedAndFragmentedControlFrames() {
        expectFailure("89 fe 00 7e 00 00 00 00", .protocolError)  // ping with 126-byte payload
        expectFailure("09 80 00 00 00 00", .protocolError)  // ping without FIN
        expectFailure("08 80 00 00 00 00", .protocolError)  // close without FIN
    }

    @Test func rejectsLengthWithMostSignificantBitSet() {
        expectFailure("82 ff 80 00 00 00 00 00 00 00", .protocolError)
    }

    /// The limit is enforced as soon as the length is known, before any payload arrives.
    @Test func rejectsFramesOverTheLimitFromTheHeaderAlone() {
        expectFailure("82 fe 04 01", .messageTooBig, maxFrameSize: 1024)  // 1025 bytes, 16-bit form
        expectFailure("82 ff 00 00 00 01 00 00 00 00", .messageTooBig, maxFrameSize: 1 << 20)  // 4 GiB, 64-bit form
    }
}
