import Foundation
import NIOCore
import NIOPosix
import SystemTLS

/// How our client connects. Every field has a documented default.
public struct WebSocketClientConfiguration: Sendable {
    /// Limits and timers of the connection once open.
    public var webSocket = WebSocketConfiguration()
    /// For `wss://`: how to verify the server. Nil uses the system CA store with hostname verification.
    public var tls: TLSClientContext?
    /// Subprotocols to offer, in order of preference.
    public var subprotocols: [String] = []
    /// Extra request headers (e.g. `Authorization`, `Origin`).
    public var headers: [(String, String)] = []
    /// How long the TCP (and TLS) connect may take.
    public var connectTimeout: TimeAmount = .seconds(10)
    /// How long, after connecting, the server has to answer the upgrade.
    public var handshakeTimeout: TimeAmount = .seconds(10)
    /// The largest response head accepted.
    public var maxResponseHeadSize: Int = 16 * 1024
    /// Bind the local end to this address (e.g. `127.0.0.2`) before connecting; nil lets the system pick.
    /// A load generator spreads connections over loopback addresses this way.
    public var localAddress: String?
    /// The socket's receive buffer (`SO_RCVBUF`) in bytes; nil leaves it to the system. A small one
    /// makes a peer that stops reading look slow to the server at once (tests of conflation, load
    /// generators simulating phones on bad networks).
    public var receiveBufferSize: Int?
    /// The size of the connection's first read buffer. NIO keeps each connection's read buffer for
    /// reuse and grows it when reads fill it, so a small start keeps a client that holds thousands of
    /// connections (the load generator) cheap without slowing a busy one; as on the server.
    public var initialReceiveBufferSize: Int = 512
    /// The most a read buffer grows to (at least `initialReceiveBufferSize`). A buffer grown by one burst
    /// — a set-up's replies and events arriving together — stays that size for the connection's life,
    /// so a client holding thousands of connections caps it; a larger message just takes more reads.
    public var maximumReceiveBufferSize: Int = 65_536

    public init() {}
}

/// Why a client could not connect.
public enum WebSocketClientError: Error, Sendable, CustomStringConvertible {
    case invalidURL(String)
    case handshake(WebSocketHandshakeError)

    public var description: String {
        switch self {
        case .invalidURL(let why): "invalid WebSocket URL: \(why)"
        case .handshake(let error): error.description
        }
    }
}

/// A parsed `ws://` or `wss://` URL.
public struct WebSocketURL: Sendable, Equatable {
    public var secure: Bool
    public var host: String
    public var port: Int
    /// Path and query, never empty (`/` at least).
    public var target: String

    public init(_ string: String) throws(WebSocketClientError) {
        guard let components = URLComponents(string: string), let scheme = components.scheme?.lowercased() else {
            throw .invalidURL("cannot parse '\(string)'")
        }
        switch scheme {
        case "ws": secure = false
        case "wss": secure = true
        default: throw .invalidURL("scheme must be ws or wss, not '\(scheme)'")
        }
        guard var host = components.host, !host.isEmpty else { throw .invalidURL("no host in '\(string)'") }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.host = host
        port = components.port ?? (secure ? 443 : 80)
        guard (1...65535).contains(port) else { throw .invalidURL("port \(port) out of range") }
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        self.target = target
    }

    /// The `Host` header value: the port only when it is not the scheme's default.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (secure ? 443 : 80) ? name : "\(name):\(port)"
    }
}

/// Opens WebSocket connections.
public enum WebSocketClient {
    /// Connects, completes the opening handshake, and runs `body` with the open connection. When `body`
    /// returns the connection is closed politely (1000) if it is still open.
    public static func connect<Result: Sendable>(
        to url: String, configuration: WebSocketClientConfiguration = WebSocketClientConfiguration(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        _ body: (WebSocket) async throws -> Result
    ) async throws -> Result {
        let webSocket = try await open(to: url, configuration: configuration, eventLoopGroup: eventLoopGroup)
        return try await WebSocket.run(webSocket, body)
    }

    /// Connects, completes the opening handshake, and returns the open connection, which the caller
    /// owns from then on: it must close it (``WebSocket/close(code:reason:)``, or
    /// ``WebSocketConnection/close(code:reason:)`` from the event loop).
    ///
    /// For a client that outlives the task that set it up: it speaks request and reply through
    /// ``WebSocket/inbound``, hands the inbound side to a receiver (``WebSocket/handOver(to:)``), and
    /// from then on costs no task while it listens — what a load generator holding thousands of
    /// connections needs. ``connect(to:configuration:eventLoopGroup:_:)`` is the scoped form.
    public static func open(
        to url: String, configuration: WebSocketClientConfiguration = WebSocketClientConfiguration(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> WebSocket {
        let target = try WebSocketURL(url)
        let tls: TLSClientContext?
        if target.secure {
            tls = try configuration.tls ?? TLSClientContext(configuration: TLSClientConfiguration())
        } else {
            tls = nil
        }
        var bootstrap = ClientBootstrap(group: eventLoopGroup)
            .connectTimeout(configuration.connectTimeout)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelOption(
                .recvAllocator,
                value: AdaptiveRecvByteBufferAllocator(
                    minimum: min(64, configuration.initialReceiveBufferSize),
                    initial: configuration.initialReceiveBufferSize,
                    maximum: max(configuration.maximumReceiveBufferSize, configuration.initialReceiveBufferSize)))
            .channelOption(
                .writeBufferWaterMark,
                value: .init(
                    low: configuration.webSocket.outboundLowWaterMark,
                    high: configuration.webSocket.outboundHighWaterMark))
        if let size = configuration.receiveBufferSize {
            bootstrap = bootstrap.channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(size))
        }
        if let localAddress = configuration.localAddress {
            bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: localAddress, port: 0))
        }
        let upgrade = try await bootstrap.connect(host: target.host, port: target.port) { channel in
            channel.eventLoop.makeCompletedFuture {
                let pipeline = channel.pipeline.syncOperations
                if let tls {
                    // The handler verifies an IP literal against the certificate's IP entries (and sends
                    // no SNI for it), so the host goes in either way.
                    try pipeline.addHandler(try tls.makeClientHandler(serverHostname: target.host))
                }
                let promise = channel.eventLoop.makePromise(of: ClientUpgradeResult.self)
                try pipeline.addHandler(
                    ClientHandshakeHandler(url: target, configuration: configuration, promise: promise))
                return promise.futureResult
            }
        }.get()
        return WebSocket(connection: upgrade.connection, bridge: upgrade.bridge)
    }
}
