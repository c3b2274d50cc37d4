import NIOCore
import Testing
@testable import WebSocketCore

@Suite struct ConnectionStateMachineTests {
    typealias Action = WebSocketConnectionStateMachine.Action
    let allocator = ByteBufferAllocator()

    private func machine(maxMessageSize: Int = 1024, deflate: NegotiatedDeflate? = nil) -> WebSocketConnectionStateMachine {
        WebSocketConnectionStateMachine(role: .server, maxMessageSize: maxMessageSize, maxDecompressedSize: maxMessageSize, deflate: deflate)
    }

    private func frame(_ opcode: WebSocketOpcode, _ text: String, fin: Bool = true, rsv1: Bool = false) -> WebSocketFrame {
        WebSocketFrame(fin: fin, rsv1: rsv1, opcode: opcode, payload: ByteBuffer(string: text))
    }

    private func frame(_ opcode: WebSocketOpcode, bytes: [UInt8], fin: Bool = true) -> WebSocketFrame {
        WebSocketFrame(fin: fin, opcode: opcode, payload: ByteBuffer(bytes: bytes))
    }

    private func failureCode(_ action: Action) -> WebSocketCloseCode? {
        if case .fail(let error) = action { return error.closeCode }
        return nil
    }

    @Test func assemblesFragmentsWithInterleavedControlFrames() {
        var m = machine()
        #expect(m.received(frame(.text, "Hel", fin: false), allocator: allocator) == .none)
        #expect(m.received(frame(.ping, "p"), allocator: allocator) == .sendPong(ByteBuffer(string: "p")))
        #expect(m.received(frame(.continuation, "lo, ", fin: false), allocator: allocator) == .none)
        #expect(m.received(frame(.pong, ""), allocator: allocator) == .pongReceived)
        #expect(m.received(frame(.continuation, "world"), allocator: allocator) == .deliver(.text("Hello, world")))
    }

    @Test func continuationWithoutStartIsAProtocolError() {
        var m = machine()
        #expect(failureCode(m.received(frame(.continuation, "x"), allocator: allocator)) == .protocolError)
    }

    @Test func newDataFrameInsideAFragmentedMessageIsAProtocolError() {
        var m = machine()
        _ = m.received(frame(.binary, "a", fin: false), allocator: allocator)
        #expect(failureCode(m.received(frame(.text, "b"), allocator: allocator)) == .protocolError)
    }

    /// §8.1: the fragment carrying the first invalid byte fails the connection; later fragments are not
    /// awaited.
    @Test func invalidUTF8FailsOnTheFirstBadFragment() {
        var m = machine()
        #expect(m.received(frame(.text, bytes: Array("κόσμε".utf8), fin: false), allocator: allocator) == .none)
        #expect(failureCode(m.received(frame(.continuation, bytes: [0xED, 0xA0, 0x80], fin: false), allocator: allocator)) == .invalidPayloadData)
    }

    @Test func textEndingMidCharacterIsInvalid() {
        var m = machine()
        _ = m.received(frame(.text, bytes: [0xCE], fin: false), allocator: allocator)
        #expect(failureCode(m.received(frame(.continuation, bytes: []), allocator: allocator)) == .invalidPayloadData)
        var single = machine()
        #expect(failureCode(single.received(frame(.text, bytes: [0xCE, 0xBA, 0xE1]), allocator: allocator)) == .invalidPayloadData)
    }

    @Test func binaryIsNotValidatedAsText() {
        var m = machine()
        #expect(m.received(frame(.binary, bytes: [0xFF, 0xFE]), allocator: allocator) == .deliver(.binary(ByteBuffer(bytes: [0xFF, 0xFE]))))
    }

    @Test func messageSizeLimitCountsAllFragments() {
        var m = machine(maxMessageSize: 10)
        _ = m.received(frame(.binary, "123456", fin: false), allocator: allocator)
        #expect(failureCode(m.received(frame(.continuation, "78901"), allocator: allocator)) == .messageTooBig)
        var single = machine(maxMessageSize: 10)
        #expect(failureCode(single.received(frame(.text, "12345678901"), allocator: allocator)) == .messageTooBig)
    }

    @Test func rsv1RulesForCompression() {
        var plain = machine()
        #expect(failureCode(plain.received(frame(.text, "x", rsv1: true), allocator: allocator)) == .protocolError)
        let deflate = NegotiatedDeflate(ourNoContextTakeover: true, peerNoContextTakeover: false, ourWindowBits: 15, peerWindowBits: 15)
        var compressed = machine(deflate: deflate)
        _ = compressed.received(WebSocketFrame(fin: false, rsv1: true, opcode: .text, payload: hexBuffer("f2 48")), allocator: allocator)
        #expect(failureCode(compressed.received(WebSocketFrame(fin: true, rsv1: true, opcode: .continuation, payload: hexBuffer("cd c9 c9 07 00")), allocator: allocator)) == .protocolError)
        var ping = machine(deflate: deflate)
        #expect(failureCode(ping.received(WebSocketFrame(rsv1: true, opcode: .ping, payload: ByteBuffer()), allocator: allocator)) == .protocolError)
    }

    @Test func inflatesACompressedMessageSplitAcrossFragments() {
        let deflate = NegotiatedDeflate(ourNoContextTakeover: true, peerNoContextTakeover: false, ourWindowBits: 15, peerWindowBits: 15)
        var m = machine(deflate: deflate)
        #expect(m.received(WebSocketFrame(fin: false, rsv1: true, opcode: .text, payload: hexBuffer("f2 48 cd")), allocator: allocator) == .none)
        #expect(m.received(WebSocketFrame(fin: true, opcode: .continuation, payload: hexBuffer("c9 c9 07 00")), allocator: allocator) == .deliver(.text("Hello")))
        // Context takeover: the same inflater continues; an uncompressed message in between is fine.
        #expect(m.received(frame(.text, "plain"), allocator: allocator) == .deliver(.text("plain")))
    }

    @Test func zipBombFailsWith1009() throws {
        let deflate = NegotiatedDeflate(ourNoContextTakeover: true, peerNoContextTakeover: true, ourWindowBits: 15, peerWindowBits: 15)
        let bomb = try ZlibDeflater(windowBits: 15).compress(ByteBuffer(repeating: 0x20, count: 1 << 20), allocator: allocator)
        var m = WebSocketConnectionStateMachine(role: .server, maxMessageSize: 1 << 20, maxDecompressedSize: 64 * 1024, deflate: deflate)
        #expect(failureCode(m.received(WebSocketFrame(rsv1: true, opcode: .binary, payload: bomb), allocator: allocator)) == .messageTooBig)
    }

    // 1012–1014 are IANA's since RFC 6455 (a cluster's draining node closes with 1012); Autobahn counts
    // neither them valid nor invalid.
    @Test(arguments: [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999] as [UInt16])
    func validCloseCodesAreEchoed(code: UInt16) {
        var m = machine()
        #expect(m.received(frame(.close, bytes: closePayload(code, "bye")), allocator: allocator)
            == .echoClose(WebSocketCloseStatus(code: WebSocketCloseCode(rawValue: code), reason: "bye")))
        #expect(m.closeState == .closeReceived)
    }

    @Test(arguments: [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535] as [UInt16])
    func invalidCloseCodesAreProtocolErrors(code: UInt16) {
        var m = machine()
        #expect(failureCode(m.received(frame(.close, bytes: closePayload(code)), allocator: allocator)) == .protocolError)
    }

    @Test func closePayloadRules() {
        var empty = machine()
        #expect(empty.received(frame(.close, bytes: []), allocator: allocator) == .echoClose(WebSocketCloseStatus(code: .noStatusReceived)))
        var one = machine()
        #expect(failureCode(one.received(frame(.close, bytes: [0x03]), allocator: allocator)) == .protocolError)
        var badReason = machine()
        #expect(failureCode(badReason.received(frame(.close, bytes: closePayload(1000) + [0xCE, 0xBA, 0xE1, 0xBD]), allocator: allocator)) == .invalidPayloadData)
    }

    @Test func closeHandshakeWeStarted() {
        var m = machine()
        let first = m.sendingClose()
        let second = m.sendingClose()
        #expect(first && !second)
        // Data after our close is discarded, pings are not answered, the peer's close completes it.
        #expect(m.received(frame(.text, "late"), allocator: allocator) == .none)
        #expect(m.received(frame(.ping, ""), allocator: allocator) == .none)
        #expect(m.received(frame(.close, bytes: closePayload(1000)), allocator: allocator) == .closeHandshakeComplete(WebSocketCloseStatus(code: .normalClosure)))
        #expect(m.received(frame(.text, "after"), allocator: allocator) == .none)
    }
}
