import ParlorTestSupport
import NIOCore
import NIOEmbedded
import SystemTLS
import Testing

/// Client and server handlers on two `EmbeddedChannel`s, with the test moving the bytes: every step is visible.
@Suite struct TLSEmbeddedTests {
    let serverContext: TLSServerContext
    let clientContext: TLSClientContext

    init() throws {
        let pki = try TestPKI.get()
        serverContext = try TLSServerContext(
            configuration: TLSServerConfiguration(
                certificateChainPath: pki.serverCertificate, privateKeyPath: pki.serverKey))
        clientContext = try TLSClientContext(configuration: TLSClientConfiguration(trustRoots: .file(pki.caCertificate)))
    }

    /// Collects plaintext, events and errors on an embedded channel.
    final class Sink: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        var received: [UInt8] = []
        var events: [TLSEvent] = []
        var errors: [Error] = []
        var inactive = false

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            received += Self.unwrapInboundIn(data).readableBytesView
        }
        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if let event = event as? TLSEvent { events.append(event) }
        }
        func errorCaught(context: ChannelHandlerContext, error: Error) { errors.append(error) }
        func channelInactive(context: ChannelHandlerContext) { inactive = true }
    }

    /// Moves flushed ciphertext both ways until neither side has more; returns the number of buffers moved.
    @discardableResult
    private func pump(_ a: EmbeddedChannel, _ b: EmbeddedChannel) throws -> Int {
        var moved = 0
        while true {
            var progress = false
            for (from, to) in [(a, b), (b, a)] {
                while let bytes = try from.readOutbound(as: ByteBuffer.self) {
                    if to.isActive { try to.writeInbound(bytes) }
                    moved += 1
                    progress = true
                }
            }
            if !progress { return moved }
        }
    }

    private func records(_ channel: EmbeddedChannel) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { bytes += buffer.readableBytesView }
        return bytes
    }

    @Test func handshakeFlushesAndCloseNotifyStepByStep() throws {
        let client = EmbeddedChannel()
        let server = EmbeddedChannel()
        let clientSink = Sink()
        let serverSink = Sink()
        try client.pipeline.syncOperations.addHandlers([
            try clientContext.makeClientHandler(serverHostname: "localhost"), clientSink,
        ])
        try server.pipeline.syncOperations.addHandlers([serverContext.makeServerHandler(), serverSink])
        let address = try SocketAddress(ipAddress: "127.0.0.1", port: 443)

        // Written before the connection is even active: kept, not sent.
        let early = client.write(ByteBuffer(bytes: Array("early".utf8)))
        client.flush()
        let unflushed = client.write(ByteBuffer(bytes: Array("unflushed".utf8)))
        #expect(try client.readOutbound(as: ByteBuffer.self) == nil)

        try client.connect(to: address).wait()
        try server.connect(to: address).wait()
        // Activation sends exactly the ClientHello: one handshake record.
        let hello = try #require(try client.readOutbound(as: ByteBuffer.self))
        #expect(hello.getInteger(at: 0, as: UInt8.self) == 0x16)
        #expect(try client.readOutbound(as: ByteBuffer.self) == nil)
        try server.writeInbound(hello)
        try pump(client, server)

        #expect(clientSink.events == [.handshakeCompleted(negotiatedALPN: "http/1.1", serverName: "localhost", protocolVersion: "TLSv1.3")])
        #expect(serverSink.events == [.handshakeCompleted(negotiatedALPN: "http/1.1", serverName: "localhost", protocolVersion: "TLSv1.3")])
        // The flushed early write went out with the handshake; the unflushed one is written but waits for a flush.
        #expect(serverSink.received == Array("early".utf8))
        try early.wait()
        var unflushedDone = false
        unflushed.assumeIsolated().whenComplete { _ in unflushedDone = true }
        #expect(!unflushedDone)
        client.flush()
        #expect(unflushedDone)
        try pump(client, server)
        #expect(serverSink.received == Array("earlyunflushed".utf8))

        // After the handshake: a write is encrypted at once but leaves only when flushed.
        let later = client.write(ByteBuffer(bytes: Array("later".utf8)))
        #expect(try client.readOutbound(as: ByteBuffer.self) == nil)
        client.flush()
        try later.wait()
        let record = try #require(try client.readOutbound(as: ByteBuffer.self))
        #expect(record.getInteger(at: 0, as: UInt8.self) == 0x17)  // application_data
        #expect(!record.readableBytesView.elementsEqual(Array("later".utf8)))
        try server.writeInbound(record)
        #expect(serverSink.received == Array("earlyunflushedlater".utf8))

        // Server to client, byte by byte: partial records produce nothing until complete.
        let reply = server.writeAndFlush(ByteBuffer(bytes: Array("reply".utf8)))
        try reply.wait()
        let replyRecord = try records(server)
        for (index, byte) in replyRecord.enumerated() {
            try client.writeInbound(ByteBuffer(bytes: [byte]))
            #expect(clientSink.received.isEmpty == (index < replyRecord.count - 1))
        }
        #expect(clientSink.received == Array("reply".utf8))

        // close: close_notify (an alert, which TLS 1.3 encrypts as application_data), then the channel closes once
        // it is written.
        let closed = client.close()
        let closeNotify = try #require(try client.readOutbound(as: ByteBuffer.self))
        #expect(closeNotify.getInteger(at: 0, as: UInt8.self) == 0x17)
        #expect(closeNotify.readableBytes == 5 + 2 + 1 + 16)  // header, alert, inner content type, AEAD tag
        try closed.wait()
        #expect(clientSink.inactive)
        #expect(clientSink.errors.isEmpty)
        // The server answers the close_notify with its own, and closes, without an error.
        try server.writeInbound(closeNotify)
        #expect(serverSink.inactive)
        #expect(serverSink.errors.isEmpty)
        let answer = try records(server)
        #expect(!answer.isEmpty)

        // Writes after close fail.
        #expect(throws: (any Error).self) { try server.writeAndFlush(ByteBuffer(bytes: [1])).wait() }

        _ = try? client.finish(acceptAlreadyClosed: true)
        _ = try? server.finish(acceptAlreadyClosed: true)
    }

    @Test func handlersAreFreedWithTheirChannels() throws {
        weak var weakHandler: TLSHandler?
        do {
            let channel = EmbeddedChannel()
            let handler = try clientContext.makeClientHandler(serverHostname: "localhost")
            weakHandler = handler
            try channel.pipeline.syncOperations.addHandler(handler)
            try channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
            #expect(try channel.readOutbound(as: ByteBuffer.self) != nil)
            try channel.close().wait()
            _ = try channel.finish(acceptAlreadyClosed: true)
        }
        #expect(weakHandler == nil)
    }

    @Test func truncatedStreamAfterHandshakeIsReported() throws {
        let client = EmbeddedChannel()
        let server = EmbeddedChannel()
        let serverSink = Sink()
        try client.pipeline.syncOperations.addHandler(try clientContext.makeClientHandler(serverHostname: "localhost"))
        try server.pipeline.syncOperations.addHandlers([serverContext.makeServerHandler(), serverSink])
        let address = try SocketAddress(ipAddress: "127.0.0.1", port: 443)
        try client.connect(to: address).wait()
        try server.connect(to: address).wait()
        try pump(client, server)
        #expect(serverSink.events.count == 1)
        // The client's TCP connection ends without close_notify.
        server.pipeline.fireChannelInactive()
        #expect(serverSink.errors.compactMap { ($0 as? TLSError)?.kind } == [.uncleanShutdown])
        _ = try? client.finish(acceptAlreadyClosed: true)
        _ = try? server.finish(acceptAlreadyClosed: true)
    }
}
