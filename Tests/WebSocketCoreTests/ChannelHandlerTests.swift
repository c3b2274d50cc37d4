import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import Testing
@testable import WebSocketCore

/// The handler on an EmbeddedChannel: bytes in, exact bytes out.
@Suite struct ChannelHandlerTests {
    private func makeChannel(
        role: WebSocketRole = .server, configure: (inout WebSocketConfiguration) -> Void = { _ in },
        deflate: NegotiatedDeflate? = nil
    ) throws -> (EmbeddedChannel, WebSocketCloseRecorder, WebSocketBridge) {
        var configuration = WebSocketConfiguration()
        configuration.pingInterval = nil
        configuration.idleTimeout = nil
        configure(&configuration)
        let channel = EmbeddedChannel()
        try channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let (connection, bridge) = try Self.upgrade(channel, role: role, configuration: configuration, deflate: deflate)
        return (channel, connection.closeRecorder, bridge)
    }

    /// Installs the WebSocket handler on `channel` with a bridge as its receiver, as an upgrade does.
    static func upgrade(
        _ channel: EmbeddedChannel, role: WebSocketRole = .server, configuration: WebSocketConfiguration,
        deflate: NegotiatedDeflate? = nil
    ) throws -> (WebSocketConnection, WebSocketBridge) {
        let (connection, handler) = WebSocketConnection.upgrading(
            channel, role: role, configuration: configuration, deflate: deflate, subprotocol: nil, shutdown: ShutdownSignal())
        let bridge = WebSocketBridge(configuration: configuration)
        bridge.attach(connection)
        handler.receiver = bridge
        try channel.pipeline.syncOperations.addHandler(handler)
        return (connection, bridge)
    }

    private func outbound(_ channel: EmbeddedChannel) throws -> String {
        var all = ByteBuffer()
        while var next = try channel.readOutbound(as: ByteBuffer.self) { all.writeBuffer(&next) }
        return hexString(all)
    }

    @Test func deliversMessagesAndAnswersPingsWithTheSamePayload() throws {
        let (channel, _, bridge) = try makeChannel()
        var bytes = clientFrame(.text, text: "Hello")
        var ping = clientFrame(.ping, [1, 2, 3])
        bytes.writeBuffer(&ping)
        try channel.writeInbound(bytes)
        #expect(bridge.takeQueued() == .text("Hello"))
        #expect(try outbound(channel) == "8a 03 01 02 03")
    }

    @Test func framesSplitAcrossReadsAreReassembled() throws {
        let (channel, _, bridge) = try makeChannel()
        let frame = clientFrame(.binary, Array(0..<200))
        for i in 0..<frame.readableBytes {
            try channel.writeInbound(frame.getSlice(at: i, length: 1)!)
        }
        let message = try #require(bridge.takeQueued())
        #expect(Array(message.data.readableBytesView) == Array(0..<200))
    }

    @Test func echoesThePeersCloseCodeThenClosesTCP() throws {
        let (channel, recorder, _) = try makeChannel()
        try channel.writeInbound(clientFrame(.close, closePayload(4000, "done")))
        #expect(try outbound(channel) == "88 02 0f a0")
        #expect(!channel.isActive)
        #expect(recorder.recorded == WebSocketCloseStatus(code: WebSocketCloseCode(rawValue: 4000), reason: "done"))
    }

    @Test func unmaskedClientFrameFailsWith1002AndCloses() throws {
        let (channel, recorder, _) = try makeChannel()
        try channel.writeInbound(hexBuffer("81 05 48 65 6c 6c 6f"))
        let out = try outbound(channel)
        #expect(out.hasPrefix("88 ") && out.contains("03 ea"))  // close frame with 1002
        #expect(!channel.isActive)
        #expect(recorder.recorded?.code == .protocolError)
    }

    @Test func invalidUTF8FailsWith1007() throws {
        let (channel, _, _) = try makeChannel()
        try channel.writeInbound(clientFrame(.text, [0xC0, 0xAF]))
        #expect(try outbound(channel).contains("03 ef"))
        #expect(!channel.isActive)
    }

    @Test func oversizedFrameFailsWith1009BeforeThePayloadArrives() throws {
        let (channel, _, _) = try makeChannel { $0 = $0.withMessageLimit(1000) }
        try channel.writeInbound(hexBuffer("82 fe 10 00 00 00 00 00"))  // announces 4096 bytes
        #expect(try outbound(channel).contains("03 f1"))
        #expect(!channel.isActive)
    }

    @Test func applicationCloseSendsCloseFrameAndWaitsForTheReply() throws {
        let (channel, recorder, _) = try makeChannel()
        try channel.writeOutbound(WebSocketOutbound.close(.goingAway, ""))
        #expect(try outbound(channel) == "88 02 03 e9")
        #expect(channel.isActive)
        // Messages after our close are refused, the peer's close completes the handshake.
        #expect(throws: WebSocketError.closed) { try channel.writeOutbound(WebSocketOutbound.message(.text("late"))) }
        try channel.writeInbound(clientFrame(.close, closePayload(1001)))
        #expect(!channel.isActive)
        #expect(recorder.recorded?.code == .goingAway)
    }

    @Test func closeTimeoutDropsAPeerThatNeverAnswers() throws {
        let (channel, _, _) = try makeChannel { $0.closeTimeout = .seconds(5) }
        try channel.writeOutbound(WebSocketOutbound.close(.normalClosure, ""))
        channel.embeddedEventLoop.advanceTime(by: .seconds(4))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive)
    }

    @Test func keepalivePingsAndIdleTimeout() throws {
        let (channel, recorder, _) = try makeChannel {
            $0.pingInterval = .seconds(10)
            $0.idleTimeout = .seconds(25)
        }
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        #expect(try outbound(channel) == "89 00")
        // A pong counts as life.
        try channel.writeInbound(clientFrame(.pong, []))
        channel.embeddedEventLoop.advanceTime(by: .seconds(20))
        #expect(channel.isActive)
        _ = try outbound(channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(20))
        #expect(!channel.isActive)
        #expect(recorder.recorded == WebSocketCloseStatus(code: .goingAway, reason: "idle timeout"))
    }

    @Test func abruptDisconnectIsReportedAs1006() throws {
        let (channel, recorder, _) = try makeChannel()
        try channel.close().wait()
        #expect(recorder.recorded?.code == .abnormalClosure)
    }

    /// A peer that leaves during the upgrade must still end the application's inbound sequence.
    @Test func addedToAClosedChannelItEndsAtOnce() async throws {
        let channel = EmbeddedChannel()
        let (connection, bridge) = try Self.upgrade(channel, configuration: WebSocketConfiguration())
        #expect(await bridge.next() == nil)
        #expect(connection.closeRecorder.recorded?.code == .abnormalClosure)
    }

    @Test func clientRoleMasksEveryFrameWithAFreshKey() throws {
        let (channel, _, _) = try makeChannel(role: .client)
        try channel.writeOutbound(WebSocketOutbound.message(.text("Hello")))
        try channel.writeOutbound(WebSocketOutbound.message(.text("Hello")))
        let first = try #require(try channel.readOutbound(as: ByteBuffer.self))
        let second = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(first.getInteger(at: 1, as: UInt8.self) == 0x85)  // mask bit + length 5
        #expect(first.getSlice(at: 2, length: 4) != second.getSlice(at: 2, length: 4))
        var copy = first
        let frame = try #require(try WebSocketFrameDecoder(role: .server, maxFrameSize: 100).decode(&copy))
        #expect(String(buffer: frame.payload) == "Hello")
    }

    @Test func serverCompressesLargeMessagesAndSharesPreparedFrames() throws {
        let deflate = NegotiatedDeflate(ourNoContextTakeover: true, peerNoContextTakeover: false, ourWindowBits: 15, peerWindowBits: 15)
        let (channel, _, _) = try makeChannel(deflate: deflate)
        let text = String(repeating: "parlor ", count: 100)
        try channel.writeOutbound(WebSocketOutbound.message(.text(text)))
        let frame = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(frame.getInteger(at: 0, as: UInt8.self) == 0xC1)  // FIN + RSV1 + text
        #expect(frame.readableBytes < text.utf8.count)
        let prepared = PreparedMessage(text: text)
        try channel.writeOutbound(WebSocketOutbound.prepared(prepared))
        let shared = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(shared == frame)
        // Small messages stay uncompressed.
        try channel.writeOutbound(WebSocketOutbound.message(.text("hi")))
        #expect(try outbound(channel) == "81 02 68 69")
    }

    /// A consumer that falls behind holds reads at the high-water mark; draining below the low mark asks
    /// for the next read.
    @Test func stopsReadingWhileTheConsumerIsBehind() async throws {
        var configuration = WebSocketConfiguration()
        configuration.pingInterval = nil
        configuration.idleTimeout = nil
        configuration.inboundHighWaterMark = 3
        configuration.inboundLowWaterMark = 1
        let channel = EmbeddedChannel()
        try await channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 1)).get()
        let reads = ReadCounter()
        try channel.pipeline.syncOperations.addHandler(reads)
        let (_, bridge) = try Self.upgrade(channel, configuration: configuration)
        for word in ["a", "b", "c"] { try channel.writeInbound(clientFrame(.text, text: word)) }
        channel.read()
        #expect(reads.count == 0)  // held: three messages wait for the consumer
        #expect(await bridge.next() == .text("a"))
        #expect(reads.count == 0)  // two still queued, above the low mark
        #expect(await bridge.next() == .text("b"))
        #expect(reads.count == 1)  // caught up: the owed read is issued
        #expect(await bridge.next() == .text("c"))
        try await channel.close().get()
        #expect(await bridge.next() == nil)  // the end of the connection ends the sequence
    }

    /// Autobahn's strict behaviour (3.2–3.4, 4.x, 5.15): a valid message followed, in the same read, by a
    /// violation is delivered and may be answered; the connection fails only once the consumer has come
    /// back for more, and nothing after the violation is looked at.
    @Test func aViolationWaitsUntilTheMessagesBeforeItAreAnswered() async throws {
        let (channel, recorder, bridge) = try makeChannel()
        var bytes = clientFrame(.text, text: "Hello")
        var bad = hexBuffer("81 05 48 65 6c 6c 6f")  // unmasked: a protocol error
        bytes.writeBuffer(&bad)
        var after = clientFrame(.text, text: "never")
        bytes.writeBuffer(&after)
        try channel.writeInbound(bytes)
        #expect(channel.isActive)  // not failed yet: "Hello" has not been answered
        #expect(try outbound(channel) == "")
        #expect(await bridge.next() == .text("Hello"))
        try channel.writeOutbound(WebSocketOutbound.message(.text("Hello")))  // the answer
        #expect(await bridge.next() == nil)  // back for more: the violation ends the inbound sequence
        channel.embeddedEventLoop.run()
        let out = try outbound(channel)
        #expect(out.hasPrefix("81 05 48 65 6c 6c 6f 88 "))  // the answer first, then a close frame…
        #expect(out.contains("03 ea"))  // …with 1002
        #expect(!channel.isActive)
        #expect(recorder.recorded?.code == .protocolError)
    }

    /// A consumer that never comes back does not keep a broken connection open: it fails after the close
    /// timeout.
    @Test func aViolationFailsAfterTheCloseTimeoutIfTheConsumerNeverReturns() throws {
        let (channel, _, bridge) = try makeChannel { $0.closeTimeout = .seconds(2) }
        var bytes = clientFrame(.text, text: "Hello")
        var bad = clientFrame(.text, [0xC0, 0xAF])
        bytes.writeBuffer(&bad)
        try channel.writeInbound(bytes)
        #expect(bridge.takeQueued() == .text("Hello"))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(try outbound(channel).contains("03 ef"))  // 1007
        #expect(!channel.isActive)
    }

    /// Autobahn 6.4.3–6.4.4: invalid UTF-8 in a frame that arrives in slow chops fails the moment the bad
    /// byte arrives, not when the frame completes.
    @Test func invalidUTF8FailsBeforeTheRestOfTheFrameArrives() throws {
        let (channel, _, _) = try makeChannel()
        let payload: [UInt8] = Array("κόσμε".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("edited".utf8)
        let frame = clientFrame(.text, payload)
        let header = frame.readableBytes - payload.count
        try channel.writeInbound(try #require(frame.getSlice(at: 0, length: header + 4)))  // valid so far
        #expect(channel.isActive)
        #expect(try outbound(channel) == "")
        try channel.writeInbound(try #require(frame.getSlice(at: header + 4, length: 9)))  // the bad sequence
        #expect(try outbound(channel).contains("03 ef"))
        #expect(!channel.isActive)
    }

    /// The same check on a continuation frame starts from where the message's earlier fragments left off.
    @Test func invalidUTF8InAContinuationFailsBeforeTheFrameCompletes() throws {
        let (channel, _, _) = try makeChannel()
        // A text message whose first fragment ends in the middle of "é" (C3 A9).
        var first = clientFrame(.text, [0x61, 0xC3], fin: false)
        try channel.writeInbound(first)
        first = clientFrame(.continuation, [0xA9, 0x62, 0xFF, 0x63, 0x64, 0x65], fin: true)
        try channel.writeInbound(try #require(first.getSlice(at: 0, length: first.readableBytes - 3)))  // through FF
        #expect(try outbound(channel).contains("03 ef"))
        #expect(!channel.isActive)
    }

    /// A fragment split across reads whose bytes are all valid is not failed early.
    @Test func validTextSplitAcrossReadsIsDelivered() throws {
        let (channel, _, bridge) = try makeChannel()
        let frame = clientFrame(.text, text: "héllo wörld, κόσμε")
        for i in 0..<frame.readableBytes {
            try channel.writeInbound(try #require(frame.getSlice(at: i, length: 1)))
        }
        #expect(bridge.takeQueued() == .text("héllo wörld, κόσμε"))
        #expect(channel.isActive)
    }

    /// A client that sets up with requests and replies, then only listens, hands its inbound side to a
    /// receiver: what the task had not read yet comes first, then everything else, and `inbound` ends.
    @Test func handOverReplaysWhatWasQueuedThenDeliversDirectly() async throws {
        let (channel, _, bridge) = try makeChannel()
        for word in ["a", "b"] { try channel.writeInbound(clientFrame(.text, text: word)) }
        let receiver = CollectingReceiver()
        let handler = try channel.pipeline.syncOperations.handler(type: WebSocketChannelHandler.self)
        let (messages, violation) = bridge.detach()
        handler.adopt(receiver, replaying: messages, violation: violation)
        try channel.writeInbound(clientFrame(.text, text: "c"))
        #expect(receiver.messages == [.text("a"), .text("b"), .text("c")])
        #expect(await bridge.next() == nil)
        try await channel.close().get()
        #expect(receiver.closedWith?.code == .abnormalClosure)
    }

    /// A peer that does not read our writes gets no further reads until it catches up.
    @Test func stopsReadingWhileTheOutboundBufferIsOverTheHighWaterMark() throws {
        let (channel, _, _) = try makeChannel()
        let reads = ReadCounter()
        try channel.pipeline.syncOperations.addHandler(reads, position: .first)
        channel.isWritable = false
        channel.pipeline.fireChannelWritabilityChanged()
        channel.read()
        #expect(reads.count == 0)
        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        #expect(reads.count == 1)
    }
}

final class ReadCounter: ChannelOutboundHandler, @unchecked Sendable {
    typealias OutboundIn = Any
    var count = 0
    func read(context: ChannelHandlerContext) {
        count += 1
        context.read()
    }
}

final class CollectingReceiver: WebSocketReceiver, @unchecked Sendable {
    var messages: [WebSocketMessage] = []
    var closedWith: WebSocketCloseStatus?
    func received(_ message: WebSocketMessage) -> WebSocketReadDemand {
        messages.append(message)
        return .more
    }
    func receivedProtocolViolation() {}
    func writabilityChanged(isWritable: Bool) {}
    func serverShuttingDown() {}
    func closed(_ status: WebSocketCloseStatus) { closedWith = status }
}
