import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SystemTLS

/// A WebSocket and HTTP/1.1 server on one port: upgrade requests become ``WebSocket``s handed to the
/// application, other requests go to its HTTP responder.
///
/// `run()` serves until ``beginGracefulShutdown()`` (or cancellation): each connection is a child task of
/// one discarding task group until it upgrades to a WebSocket that the application receives without a
/// task; `run()` returns once every connection has ended.
public final class WebSocketServer<Application: WebSocketServerApplication>: Sendable {
    public let configuration: WebSocketServerConfiguration
    private let application: Application
    private let group: any EventLoopGroup
    private let logger: Logger
    private let connections = ConnectionTracker()
    private let shutdownSignal = ShutdownSignal()
    private let listener = NIOLockedValueBox<ListenerState>(.notStarted(waiters: []))
    private let rejectedConnections = NIOLockedValueBox(0)
    private let failedConnections = NIOLockedValueBox(0)
    private let addressLimiter = AddressConnectionLimiter()

    private enum ListenerState {
        case notStarted(waiters: [CheckedContinuation<SocketAddress, any Error>])
        case listening(any Channel, SocketAddress)
        case stopped
    }

    public init(
        configuration: WebSocketServerConfiguration, application: Application,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "parlor.websocket")
    ) {
        self.configuration = configuration
        self.application = application
        self.group = eventLoopGroup
        self.logger = logger
    }

    /// The number of open connections (HTTP and WebSocket).
    public var connectionCount: Int { connections.count }

    /// Connections closed at once because the server was at `maxConnections`.
    public var rejectedConnectionCount: Int { rejectedConnections.withLockedValue { $0 } }

    /// Accepted connections that could not be set up (a socket option refused, a pipeline that could
    /// not be built) and were closed; the server went on accepting others.
    public var failedConnectionCount: Int { failedConnections.withLockedValue { $0 } }

    /// The address the server listens on, once it does (with the real port when configured with 0).
    public func localAddress() async throws -> SocketAddress {
        try await withCheckedThrowingContinuation { continuation in
            let result = listener.withLockedValue { state -> Result<SocketAddress, any Error>? in
                switch state {
                case .notStarted(var waiters):
                    waiters.append(continuation)
                    state = .notStarted(waiters: waiters)
                    return nil
                case .listening(_, let address):
                    return .success(address)
                case .stopped:
                    return .failure(ChannelError.ioOnClosedChannel)
                }
            }
            if let result { continuation.resume(with: result) }
        }
    }

    /// Binds and serves until shut down. Throws if binding fails.
    public func run() async throws {
        let serverChannel: NIOAsyncChannel<ServerConnection, Never>
        do {
            var bootstrap = ServerBootstrap(group: group)
            if let size = configuration.sendBufferSize {
                bootstrap = bootstrap.childChannelOption(.socketOption(.so_sndbuf), value: SocketOptionValue(size))
            }
            serverChannel = try await bootstrap
                .serverChannelOption(.backlog, value: configuration.backlog)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
                .childChannelOption(
                    .recvAllocator,
                    value: AdaptiveRecvByteBufferAllocator(
                        minimum: min(64, configuration.initialReceiveBufferSize),
                        initial: configuration.initialReceiveBufferSize,
                        maximum: max(65_536, configuration.initialReceiveBufferSize)))
                .childChannelOption(
                    .writeBufferWaterMark,
                    value: .init(
                        low: configuration.webSocket.outboundLowWaterMark,
                        high: configuration.webSocket.outboundHighWaterMark))
                .bind(host: configuration.host, port: configuration.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        do {
                            return try self.configureConnection(channel)
                        } catch {
                            // NIO drops a connection whose set-up failed without closing it.
                            self.failedConnections.withLockedValue { $0 += 1 }
                            self.logger.warning("A connection could not be set up", metadata: ["error": "\(error)"])
                            channel.close(promise: nil)
                            throw error
                        }
                    }
                }
        } catch {
            failWaiters(error)
            throw error
        }
        if !(await ListenerErrorHandler.install(on: serverChannel.channel, logger: logger, failures: failedConnections)) {
            logger.warning("NIO's accept handler was not found: a connection that cannot be set up will stop the server")
        }
        let address = serverChannel.channel.localAddress
        let waiters = listener.withLockedValue { state -> [CheckedContinuation<SocketAddress, any Error>] in
            guard case .notStarted(let waiters) = state, let address else { return [] }
            state = .listening(serverChannel.channel, address)
            return waiters
        }
        if let address {
            for waiter in waiters { waiter.resume(returning: address) }
            logger.info("Listening", metadata: ["address": "\(address)", "tls": "\(configuration.tls != nil)"])
        }
        // A shutdown that arrived while we were binding.
        if shutdownSignal.isFired { serverChannel.channel.close(promise: nil) }

        do {
            try await withThrowingDiscardingTaskGroup { group in
                try await serverChannel.executeThenClose { inbound in
                    for try await connection in inbound {
                        group.addTask {
                            await connection.run(application: self.application, logger: self.logger)
                        }
                    }
                }
            }
        } catch {
            closeAllConnections()
            listener.withLockedValue { $0 = .stopped }
            throw error
        }
        // WebSockets driven by receivers have no task in the group: wait for them too.
        await withTaskCancellationHandler {
            await connections.waitUntilEmpty()
        } onCancel: {
            self.closeAllConnections()
        }
        listener.withLockedValue { $0 = .stopped }
        logger.info("Stopped")
    }

    /// Stops accepting connections, tells every connection the server is going away (WebSocket handlers
    /// see ``WebSocket/shutdown`` fire; idle HTTP connections close), and after the grace period closes
    /// whatever is left with 1001. `run()` returns once every connection has ended.
    public func beginGracefulShutdown() {
        guard !shutdownSignal.isFired else { return }
        shutdownSignal.fire()
        listeningChannel?.close(promise: nil)
        for connection in connections.all {
            connection.pipeline.fireUserInboundEventTriggered(ServerShutdownEvent())
        }
        let loop = group.next()
        let tracker = connections
        let closeTimeout = configuration.webSocket.closeTimeout
        loop.scheduleTask(in: configuration.shutdownGracePeriod) {
            for connection in tracker.all {
                connection.pipeline.fireUserInboundEventTriggered(ServerGoingAwayEvent())
            }
            loop.scheduleTask(in: closeTimeout) {
                for connection in tracker.all { connection.close(promise: nil) }
            }
        }
    }

    /// The channel the server accepts on, while it listens.
    var listeningChannel: (any Channel)? {
        listener.withLockedValue { state in
            if case .listening(let channel, _) = state { return channel }
            return nil
        }
    }

    private func closeAllConnections() {
        for connection in connections.all { connection.close(promise: nil) }
    }

    private func failWaiters(_ error: any Error) {
        let waiters = listener.withLockedValue { state -> [CheckedContinuation<SocketAddress, any Error>] in
            guard case .notStarted(let waiters) = state else { return [] }
            state = .stopped
            return waiters
        }
        for waiter in waiters { waiter.resume(throwing: error) }
    }

    /// Builds a new connection's pipeline: [traffic count] → [TLS] → head-size limit → HTTP codec → pipelining → us.
    private func configureConnection(_ channel: any Channel) throws -> ServerConnection {
        // Past the server's or the address's cap: say nothing and hang up, before the connection is
        // counted anywhere. The peer sees the connection close and may retry later.
        let slot = connections.count < configuration.maxConnections
            ? addressLimiter.admit(
                channel.remoteAddress, limit: configuration.maxConnectionsPerAddress,
                exemptions: configuration.addressLimitExemptions)
            : nil
        guard let slot else {
            rejectedConnections.withLockedValue { $0 += 1 }
            channel.close(promise: nil)
            let (events, continuation) = AsyncStream.makeStream(of: ServerConnectionEvent.self)
            continuation.finish()
            return ServerConnection(channel: channel, events: events)
        }
        channel.closeFuture.whenComplete { _ in slot.release() }
        let pipeline = channel.pipeline.syncOperations
        if let trafficCounter = configuration.trafficCounter {
            try pipeline.addHandler(TrafficCountingHandler(counter: trafficCounter))
        }
        if let tls = configuration.tls {
            try pipeline.addHandler(tls.makeServerHandler())
        }
        let events = try HTTPConnectionHandler.addHandlers(
            to: pipeline, configuration: configuration, application: application, shutdown: shutdownSignal)
        connections.register(channel)
        if shutdownSignal.isFired { channel.close(promise: nil) }
        return ServerConnection(channel: channel, events: events)
    }
}
