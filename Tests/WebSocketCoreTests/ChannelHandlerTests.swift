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
        let recorder = WebSocketCloseRecorder()
        let channel = EmbeddedChannel()
        try channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let bridge = WebSocketBridge(highWatermark: configuration.inboundHighWaterMark, lowWatermark: configuration.inboundLowWaterMark, requestRead: {})
        try channel.pipeline.syncOperations.addHandler(
            WebSocketChannelHandler(role: role, configuration: configuration, deflate: deflate, closeRecorder: recorder, bridge: bridge))
        return (channel, recorder, bridge)
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
        let bridge = WebSocketBridge(highWatermark: 4, lowWatermark: 1, requestRead: {})
        let recorder = WebSocketCloseRecorder()
        try channel.pipeline.syncOperations.addHandler(
            WebSocketChannelHandler(role: .server, configuration: WebSocketConfiguration(), deflate: nil, closeRecorder: recorder, bridge: bridge))
        #expect(await bridge.next() == nil)
        #expect(recorder.recorded?.code == .abnormalClosure)
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
        let requested = NIOLockedValueBox(0)
        var configuration = WebSocketConfiguration()
        configuration.pingInterval = nil
        configuration.idleTimeout = nil
        configuration.inboundHighWaterMark = 3
        configuration.inboundLowWaterMark = 1
        let bridge = WebSocketBridge(highWatermark: 3, lowWatermark: 1, requestRead: { requested.withLockedValue { $0 += 1 } })
        let channel = EmbeddedChannel()
        try await channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 1)).get()
        let reads = ReadCounter()
        try channel.pipeline.syncOperations.addHandler(reads)
        try channel.pipeline.syncOperations.addHandler(
            WebSocketChannelHandler(role: .server, configuration: configuration, deflate: nil, closeRecorder: WebSocketCloseRecorder(), bridge: bridge))
        for word in ["a", "b", "c"] { try channel.writeInbound(clientFrame(.text, text: word)) }
        channel.read()
        #expect(reads.count == 0)  // held: three messages wait for the consumer
        #expect(await bridge.next() == .text("a"))
        #expect(requested.withLockedValue { $0 } == 0)  // two still queued, above the low mark
        #expect(await bridge.next() == .text("b"))
        #expect(requested.withLockedValue { $0 } == 1)  // caught up: the owed read is asked for
        #expect(await bridge.next() == .text("c"))
        try await channel.close().get()
        #expect(await bridge.next() == nil)  // the end of the connection ends the sequence
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
