import NIOCore

/// The result of a successful client handshake.
struct ClientUpgradeResult: Sendable {
    var connection: WebSocketConnection
    var bridge: WebSocketBridge
}

/// Sends the upgrade request, reads and checks the response, then swaps itself for the WebSocket
/// handler, passing along any frames that arrived in the same packets as the response.
final class ClientHandshakeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let url: WebSocketURL
    private let configuration: WebSocketClientConfiguration
    private let promise: EventLoopPromise<ClientUpgradeResult>
    private let key = WebSocketHandshake.makeClientKey()
    private var received: ByteBuffer?
    private var timer: Scheduled<Void>?
    private var requestSent = false
    private var finished = false

    init(url: WebSocketURL, configuration: WebSocketClientConfiguration, promise: EventLoopPromise<ClientUpgradeResult>) {
        self.url = url
        self.configuration = configuration
        self.promise = promise
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { sendRequest(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        sendRequest(context: context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        if !finished {
            finished = true
            promise.fail(WebSocketClientError.handshake(.connectionClosed))
        }
    }

    private func sendRequest(context: ChannelHandlerContext) {
        guard !requestSent else { return }
        requestSent = true
        let offer = configuration.webSocket.compression.map(PerMessageDeflateNegotiation.clientOffer)
        let request = WebSocketHandshake.clientRequest(
            path: url.target, host: url.hostHeader, key: key, subprotocols: configuration.subprotocols,
            extensionOffer: offer, extraHeaders: configuration.headers)
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: request)), promise: nil)
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: configuration.handshakeTimeout) {
            self.fail(context: context, .timedOut)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !finished else { return }
        var incoming = unwrapInboundIn(data)
        var buffer: ByteBuffer
        if var existing = received {
            received = nil
            existing.writeBuffer(&incoming)
            buffer = existing
        } else {
            buffer = incoming
        }
        let head: HTTPResponseHeadParser.Head
        do {
            guard let parsed = try HTTPResponseHeadParser(maxSize: configuration.maxResponseHeadSize).parse(&buffer) else {
                received = buffer
                return
            }
            head = parsed
        } catch {
            return fail(context: context, error)
        }
        let agreement: WebSocketHandshake.ClientAgreement
        do {
            agreement = try WebSocketHandshake.validateServerResponse(
                head, key: key, offeredSubprotocols: configuration.subprotocols,
                compression: configuration.webSocket.compression)
        } catch .unexpectedStatus(let code, let reason, _) {
            // Whatever body arrived with the refusal is the server's explanation.
            let body = String(buffer: buffer).prefix(512).trimmingCharacters(in: .whitespacesAndNewlines)
            return fail(context: context, .unexpectedStatus(code: code, reason: reason, body: body))
        } catch {
            return fail(context: context, error)
        }

        timer?.cancel()
        finished = true
        do {
            let (connection, handler) = WebSocketConnection.upgrading(
                context.channel, role: .client, configuration: configuration.webSocket, deflate: agreement.deflate,
                subprotocol: agreement.subprotocol, shutdown: ShutdownSignal())
            let bridge = WebSocketBridge(configuration: configuration.webSocket)
            bridge.attach(connection)
            handler.receiver = bridge
            let pipeline = context.pipeline.syncOperations
            try pipeline.addHandler(handler, position: .after(self))
            promise.succeed(ClientUpgradeResult(connection: connection, bridge: bridge))
            if buffer.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(buffer)) }
            pipeline.removeHandler(context: context, promise: nil)
        } catch {
            promise.fail(error)
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(context: context, .connectionClosed)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !finished else { return context.fireErrorCaught(error) }
        finished = true
        timer?.cancel()
        promise.fail(error)
        context.close(promise: nil)
    }

    private func fail(context: ChannelHandlerContext, _ error: WebSocketHandshakeError) {
        guard !finished else { return }
        finished = true
        timer?.cancel()
        promise.fail(WebSocketClientError.handshake(error))
        context.close(promise: nil)
    }
}
