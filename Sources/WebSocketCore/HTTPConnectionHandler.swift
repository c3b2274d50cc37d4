import NIOCore
import NIOHTTP1

/// Serves one HTTP/1.1 connection until it upgrades: routes plain requests to the application (one at a
/// time; NIO's pipelining handler queues the rest), and turns valid upgrade requests into WebSockets by
/// answering 101 and replacing the HTTP handlers with ``WebSocketChannelHandler``.
final class HTTPConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The handlers the upgrade removes, in the order it removes them. The request decoder goes last,
    /// so the bytes the client sent right after its upgrade request reach the WebSocket handler.
    ///
    /// There is no `HTTPServerProtocolErrorHandler`: this handler answers parse errors itself, because
    /// only it knows whether a response that closes the connection has already gone out.
    struct HTTPHandlers {
        var limiter: HTTPHeadSizeLimiter
        var encoder: HTTPResponseEncoder
        var pipelining: HTTPServerPipelineHandler
        var decoder: ByteToMessageHandler<HTTPRequestDecoder>
    }

    private enum State {
        /// Between requests (or before the first).
        case idle
        /// `limit`: the most body bytes this request may bring (the application's limit for its route).
        case receivingRequest(HTTPRequestHead, ByteBuffer, limit: Int)
        case receivingUpgrade(HTTPRequestHead)
        /// The upgrade request is complete; the upgrade happens once the request decoder has read all
        /// that came with it (`upgradeIfStillDue`).
        case upgradeDue(HTTPRequestHead)
        case waitingForResponse(keepAlive: Bool)
        /// Finished: upgraded, or closing (after a last response, which may still be being written).
        case done
    }

    /// Adds a connection's HTTP handlers after what `pipeline` holds already (TLS, if any): head-size
    /// limit → HTTP codec → pipelining → this handler. Returns the stream of the connection's events.
    static func addHandlers(
        to pipeline: ChannelPipeline.SynchronousOperations, configuration: WebSocketServerConfiguration,
        application: any WebSocketServerApplication, shutdown: ShutdownSignal
    ) throws -> AsyncStream<ServerConnectionEvent> {
        let handlers = HTTPHandlers(
            limiter: HTTPHeadSizeLimiter(limit: configuration.maxHeaderSize),
            encoder: HTTPResponseEncoder(),
            pipelining: HTTPServerPipelineHandler(),
            decoder: ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes)))
        let (events, continuation) = AsyncStream.makeStream(of: ServerConnectionEvent.self)
        try pipeline.addHandler(handlers.limiter)
        try pipeline.addHandler(handlers.encoder)
        try pipeline.addHandler(handlers.decoder)
        try pipeline.addHandler(handlers.pipelining)
        try pipeline.addHandler(
            HTTPConnectionHandler(
                configuration: configuration, application: application, events: continuation, handlers: handlers,
                shutdown: shutdown))
        return events
    }

    private let configuration: WebSocketServerConfiguration
    private let application: any WebSocketServerApplication
    private let events: AsyncStream<ServerConnectionEvent>.Continuation
    private let handlers: HTTPHandlers
    /// The server's shutdown signal, handed to the connection if it upgrades.
    private let shutdown: ShutdownSignal
    private var state = State.idle
    private var timer: Scheduled<Void>?
    private var shuttingDown = false

    init(
        configuration: WebSocketServerConfiguration, application: any WebSocketServerApplication,
        events: AsyncStream<ServerConnectionEvent>.Continuation, handlers: HTTPHandlers, shutdown: ShutdownSignal
    ) {
        self.configuration = configuration
        self.application = application
        self.events = events
        self.handlers = handlers
        self.shutdown = shutdown
    }

    // MARK: Lifecycle and timers

    func handlerAdded(context: ChannelHandlerContext) {
        // A client gets `handshakeTimeout` to send its first complete request (slowloris guard).
        armTimer(context: context, after: configuration.handshakeTimeout)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        state = .done
        events.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        switch state {
        case .done:
            // Closing already: a parse error in what the client sent after its last request is moot,
            // and answering it would put a second response after one that said `Connection: close`.
            return
        case .idle, .receivingRequest, .receivingUpgrade, .upgradeDue:
            if error is HTTPParserError {
                // No response has started, so the client can still be told why.
                return refuseAndClose(context: context, .badRequest, "Malformed HTTP request")
            }
        case .waitingForResponse:
            break
        }
        state = .done
        context.close(promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ServerShutdownEvent {
            shuttingDown = true
            if case .idle = state { context.close(promise: nil) }
            return
        }
        if event is ServerGoingAwayEvent {
            // The grace period is over. A request whose answer the application has not given yet is
            // told so (no response has started: `write` leaves this state before it writes), rather
            // than finding its connection reset; the answer that comes later is dropped.
            if case .waitingForResponse = state {
                return refuseAndClose(context: context, .serviceUnavailable, "The server is shutting down")
            }
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func armTimer(context: ChannelHandlerContext, after delay: TimeAmount) {
        timer?.cancel()
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
            switch self.state {
            case .idle, .receivingRequest, .receivingUpgrade:
                context.close(promise: nil)
            case .upgradeDue, .waitingForResponse, .done:
                break
            }
        }
    }

    // MARK: Requests

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (unwrapInboundIn(data), state) {
        case (.head(let head), .idle):
            handlers.limiter.headReceived()
            if WebSocketHandshake.isUpgradeRequest(head.headers) {
                state = .receivingUpgrade(head)
            } else {
                let limit =
                    application.maxRequestBodySize(method: head.method, path: RequestTarget(head.uri).path)
                    ?? configuration.maxRequestBodySize
                if let length = head.headers.first(name: "Content-Length").flatMap(Int.init), length > limit {
                    return refuseAndClose(context: context, .payloadTooLarge, Self.tooLarge(limit))
                }
                state = .receivingRequest(head, context.channel.allocator.buffer(capacity: 0), limit: limit)
            }
        case (.body(var chunk), .receivingRequest(let head, var body, let limit)):
            guard body.readableBytes + chunk.readableBytes <= limit else {
                return refuseAndClose(context: context, .payloadTooLarge, Self.tooLarge(limit))
            }
            state = .done  // drop our reference so `body` stays uniquely referenced while appending
            body.writeBuffer(&chunk)
            state = .receivingRequest(head, body, limit: limit)
        case (.body, .receivingUpgrade):
            break  // an upgrade request's body means nothing; ignore it
        case (.end, .receivingRequest(let head, let body, _)):
            timer?.cancel()
            dispatch(context: context, head: head, body: body)
        case (.end, .receivingUpgrade(let head)):
            timer?.cancel()
            // Not yet: NIO's decoder may go on parsing what came after this request in the same read.
            // It stops after an upgrade request only when llhttp agrees that it is one (llhttp reads
            // `Connection: Upgrade<TAB>` as no upgrade, where HTTP's optional whitespace allows the
            // tab); otherwise the next request's parts would reach the WebSocket handler, which takes
            // only bytes. Found by fuzz-http: that crashed the server.
            state = .upgradeDue(head)
            context.eventLoop.assumeIsolated().execute { self.upgradeIfStillDue(context: context) }
        case (_, .upgradeDue):
            // Another request right behind the upgrade request: the decoder did not stop, so what
            // follows is not WebSocket traffic (a client must wait for the 101 before sending any).
            refuseAndClose(context: context, .badRequest, "Another request followed the upgrade request before its answer")
        case (_, .done):
            // Requests pipelined behind the last response: the pipelining handler hands them over while
            // that response's end is being written, and closing now would drop the response unsent.
            break
        default:
            // Parts out of order cannot come from NIO's decoder; treat them as a broken connection.
            state = .done
            context.close(promise: nil)
        }
    }

    /// The reason a 413 gives: the limit of the route asked for.
    static func tooLarge(_ limit: Int) -> String {
        "Request body over \(limit) bytes, the most this route accepts"
    }

    private func dispatch(context: ChannelHandlerContext, head: HTTPRequestHead, body: ByteBuffer) {
        let keepAlive = head.isKeepAlive && !shuttingDown
        state = .waitingForResponse(keepAlive: keepAlive)
        let request = HTTPRequest(
            method: head.method, uri: head.uri, headers: head.headers, body: body,
            remoteAddress: context.channel.remoteAddress)
        let promise = context.eventLoop.makePromise(of: HTTPResponse.self)
        guard case .enqueued = events.yield(.request(request, promise)) else {
            promise.fail(ChannelError.ioOnClosedChannel)
            context.close(promise: nil)
            return
        }
        let isHead = head.method == .HEAD
        promise.futureResult.assumeIsolated().whenComplete { result in
            switch result {
            case .success(let response):
                self.write(response, isHead: isHead, context: context)
            case .failure:
                self.write(.text(.internalServerError, "Internal error\n"), isHead: isHead, context: context)
            }
        }
    }

    private func write(_ response: HTTPResponse, isHead: Bool, context: ChannelHandlerContext) {
        guard case .waitingForResponse(let keepAliveRequested) = state else { return }
        if let stream = response.bodyStream, !isHead {
            return writeStreaming(response, stream, context: context)
        }
        let keepAlive = keepAliveRequested && !shuttingDown
        var headers = response.headers
        headers.replaceOrAdd(name: "Content-Length", value: "\(response.body.readableBytes)")
        headers.replaceOrAdd(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        if let server = configuration.serverHeader, !headers.contains(name: "Server") {
            headers.add(name: "Server", value: server)
        }
        if configuration.securityHeaders { addSecurityHeaders(&headers) }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: response.status, headers: headers))), promise: nil)
        if !isHead && response.body.readableBytes > 0 {
            context.write(wrapOutboundOut(.body(.byteBuffer(response.body))), promise: nil)
        }
        // Update our state before writing the end: writing it makes NIO's pipelining handler deliver the
        // next queued request to us at once, on this same call stack.
        if keepAlive {
            state = .idle
            handlers.limiter.awaitNextHead()
            armTimer(context: context, after: configuration.httpIdleTimeout)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        } else {
            state = .done
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        }
    }

    /// A streamed body: the head at once, then each chunk as the producer writes it (it waits for each),
    /// then the end and a close. The connection is not kept alive: a response of unknown length that
    /// fails midway can only be ended by closing.
    private func writeStreaming(_ response: HTTPResponse, _ stream: HTTPBodyStream, context: ChannelHandlerContext) {
        var headers = response.headers
        headers.remove(name: "Content-Length")
        headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked")
        headers.replaceOrAdd(name: "Connection", value: "close")
        if let server = configuration.serverHeader, !headers.contains(name: "Server") {
            headers.add(name: "Server", value: server)
        }
        if configuration.securityHeaders { addSecurityHeaders(&headers) }
        state = .done
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: response.status, headers: headers))), promise: nil)
        let loop = context.eventLoop
        let bound = NIOLoopBound(context, eventLoop: loop)
        let writer = HTTPBodyWriter { chunk in
            loop.flatSubmit {
                bound.value.writeAndFlush(NIOAny(HTTPServerResponsePart.body(.byteBuffer(chunk))))
            }
        }
        Task {
            let complete: Bool
            do {
                try await stream.produce(writer)
                complete = true
            } catch {
                complete = false
            }
            loop.execute {
                let context = bound.value
                guard complete else { return context.close(promise: nil) }
                context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil))).assumeIsolated().whenComplete { _ in
                    context.close(promise: nil)
                }
            }
        }
    }

    /// Headers browsers heed, added unless the responder set its own.
    private func addSecurityHeaders(_ headers: inout HTTPHeaders) {
        var defaults = [
            ("X-Content-Type-Options", "nosniff"),
            ("X-Frame-Options", "DENY"),
            ("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"),
            ("Referrer-Policy", "no-referrer"),
        ]
        if configuration.tls != nil {
            defaults.append(("Strict-Transport-Security", "max-age=\(configuration.strictTransportSecurityMaxAge)"))
        }
        for (name, value) in defaults where !headers.contains(name: name) {
            headers.add(name: name, value: value)
        }
    }

    private func refuseAndClose(
        context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ reason: String, headers extra: [(String, String)] = []
    ) {
        timer?.cancel()
        state = .done
        var headers = HTTPHeaders(extra)
        let body = ByteBuffer(string: reason + "\n")
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: "\(body.readableBytes)")
        headers.add(name: "Connection", value: "close")
        if configuration.securityHeaders { addSecurityHeaders(&headers) }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    // MARK: Upgrade

    private func upgradeIfStillDue(context: ChannelHandlerContext) {
        guard case .upgradeDue(let head) = state, context.channel.isActive else { return }
        // The pipelining handler holds back any request that followed (it waits for this request's
        // answer); removed, it hands them over, and `channelRead` refuses the upgrade.
        context.pipeline.syncOperations.removeHandler(handlers.pipelining, promise: nil)
        guard case .upgradeDue = state else { return }
        upgrade(context: context, head: head)
    }

    private func upgrade(context: ChannelHandlerContext, head: HTTPRequestHead) {
        guard !shuttingDown else {
            return refuseAndClose(context: context, .serviceUnavailable, "The server is shutting down")
        }
        guard configuration.allowedOrigins.allows(head.headers.first(name: "Origin")) else {
            return refuseAndClose(context: context, .forbidden, "Origin not allowed")
        }
        let validated: WebSocketHandshake.ValidatedRequest
        switch WebSocketHandshake.validate(head, compression: configuration.webSocket.compression) {
        case .failure(let rejection):
            return refuseAndClose(context: context, rejection.status, rejection.reason, headers: rejection.headers)
        case .success(let request):
            validated = request
        }
        let request = WebSocketUpgradeRequest(
            uri: head.uri, headers: head.headers, remoteAddress: context.channel.remoteAddress,
            requestedSubprotocols: validated.requestedSubprotocols)

        let subprotocol: String?
        let extraHeaders: [(String, String)]
        switch application.shouldUpgrade(request) {
        case .reject(let status, let reason):
            return refuseAndClose(context: context, status, reason)
        case .accept(let chosen, let headers):
            if let chosen, !validated.requestedSubprotocols.contains(chosen) {
                return refuseAndClose(context: context, .internalServerError, "Server chose a subprotocol the client did not offer")
            }
            subprotocol = chosen
            extraHeaders = headers
        }

        var responseHeaders = HTTPHeaders([
            ("Upgrade", "websocket"),
            ("Connection", "Upgrade"),
            (WebSocketHandshake.Header.accept, validated.acceptValue),
        ])
        if let subprotocol { responseHeaders.add(name: WebSocketHandshake.Header.protocol, value: subprotocol) }
        if let deflate = validated.deflate {
            responseHeaders.add(name: WebSocketHandshake.Header.extensions, value: deflate.response)
        }
        for (name, value) in extraHeaders { responseHeaders.add(name: name, value: value) }
        context.writeAndFlush(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .switchingProtocols, headers: responseHeaders))),
            promise: nil)
        state = .done
        // What follows the 101 is WebSocket traffic.
        (try? context.pipeline.syncOperations.handler(type: TrafficCountingHandler.self))?.upgraded()

        do {
            let (connection, webSocketHandler) = WebSocketConnection.upgrading(
                context.channel, role: .server, configuration: configuration.webSocket,
                deflate: validated.deflate?.negotiated, subprotocol: subprotocol, shutdown: shutdown)
            let receiver = application.receiver(for: connection, request: request)
            var bridge: WebSocketBridge?
            if let receiver {
                webSocketHandler.receiver = receiver
            } else {
                let forTask = WebSocketBridge(configuration: configuration.webSocket)
                forTask.attach(connection)
                webSocketHandler.receiver = forTask
                bridge = forTask
            }
            let pipeline = context.pipeline.syncOperations
            pipeline.removeHandler(handlers.encoder, promise: nil)
            pipeline.removeHandler(handlers.limiter, promise: nil)
            try pipeline.addHandler(webSocketHandler, position: .after(self))
            pipeline.removeHandler(context: context, promise: nil)
            if let bridge {
                events.yield(.webSocket(UpgradedConnection(connection: connection, bridge: bridge, request: request)))
            }
            // The connection's task ends here unless it runs the WebSocket: a receiver needs none.
            events.finish()
            // Last: any bytes that followed the upgrade request now flow into the WebSocket handler.
            pipeline.removeHandler(handlers.decoder, promise: nil)
        } catch {
            context.close(promise: nil)
        }
    }
}
