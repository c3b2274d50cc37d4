import NIOCore
import NIOHTTP1
import SystemTLS

/// How a ``WebSocketServer`` listens and what it accepts. Every field has a documented default.
public struct WebSocketServerConfiguration: Sendable {
    /// The address to bind; `127.0.0.1` keeps the server on loopback.
    public var host: String = "127.0.0.1"
    /// The port to bind; 0 lets the system pick one (read it back from ``WebSocketServer/localAddress()``).
    public var port: Int = 8080
    /// Serve `wss://` and `https://` with this TLS context; nil serves plain TCP.
    public var tls: TLSServerContext?
    /// Limits and timers of upgraded connections.
    public var webSocket = WebSocketConfiguration()
    /// The largest request head (request line and headers) accepted; larger → 431 and close.
    public var maxHeaderSize: Int = 16 * 1024
    /// The largest body of a plain HTTP request, unless the application names another for its method
    /// and path (``WebSocketServerApplication/maxRequestBodySize(method:path:)``); larger → 413 and close.
    public var maxRequestBodySize: Int = 1 << 20
    /// A new connection must deliver a complete request within this time, or it is closed.
    public var handshakeTimeout: TimeAmount = .seconds(10)
    /// An HTTP keep-alive connection with no request for this long is closed.
    public var httpIdleTimeout: TimeAmount = .seconds(30)
    /// Which browser origins may open WebSockets.
    public var allowedOrigins: OriginPolicy = .any
    /// Add defensive headers to every plain HTTP response that does not set them itself
    /// (`X-Content-Type-Options`, `X-Frame-Options`, `Content-Security-Policy`, `Referrer-Policy`, and
    /// `Strict-Transport-Security` when serving TLS).
    public var securityHeaders: Bool = true
    /// The `max-age` of `Strict-Transport-Security` when serving TLS.
    public var strictTransportSecurityMaxAge: Int = 31_536_000
    /// The `Server` header added to the application's answers to plain HTTP requests that do not set their
    /// own (handshake refusals never carry one); nil sends none. Off by default because the module cannot
    /// know what it is embedded in, and naming software to strangers helps only those looking for its
    /// weaknesses; an application that wants its name there sets it.
    public var serverHeader: String?
    /// The size of the first read buffer of a connection. NIO keeps each connection's read buffer for
    /// reuse and grows it when reads fill it, so a small start keeps idle connections cheap without
    /// slowing busy ones.
    public var initialReceiveBufferSize: Int = 512
    /// The kernel's send buffer per connection (`SO_SNDBUF`); nil leaves it to the system, which grows
    /// it with the connection. A small one makes a peer that stops reading show at once as not
    /// writable (the point where feeds conflate), at some cost to bulk throughput.
    public var sendBufferSize: Int?
    /// Counts the bytes every connection receives and sends, HTTP and WebSocket apart; nil counts nothing.
    public var trafficCounter: TrafficCounter?
    /// Connections the server holds at once; past it, new ones are closed as soon as they are accepted.
    /// Keep it below the process's open-file limit, so that running out of descriptors (where every
    /// accept fails) cannot happen.
    public var maxConnections: Int = 10_000
    /// Connections one client address (an IPv4 address, or an IPv6 /64) may hold at once; past it, its
    /// new ones are closed as soon as they are accepted, without taking a slot from anyone else. Nil:
    /// no per-address cap.
    public var maxConnectionsPerAddress: Int?
    /// Addresses `maxConnectionsPerAddress` does not apply to: a load generator on loopback, a trusted
    /// reverse proxy that all clients come through.
    public var addressLimitExemptions: [AddressRange] = []
    /// The listen backlog.
    public var backlog: Int32 = 1024
    /// On graceful shutdown, how long connections get to finish and close themselves before the server
    /// closes them with 1001 (going away).
    public var shutdownGracePeriod: TimeAmount = .seconds(10)

    public init() {}
}

/// What a server does with requests: accept or refuse upgrades, run each WebSocket, answer plain HTTP.
public protocol WebSocketServerApplication: Sendable {
    /// Decides an upgrade that passed the protocol checks (path routing, authentication, subprotocol
    /// choice). Called on the connection's event loop: it must not block.
    func shouldUpgrade(_ request: WebSocketUpgradeRequest) -> WebSocketUpgradeDecision

    /// Takes over an accepted WebSocket without a task: returns who receives its messages, or nil to have
    /// it run by ``handle(_:request:)`` in a task instead (the default). Called on the connection's event
    /// loop, before any message can arrive: it must not block.
    func receiver(for connection: WebSocketConnection, request: WebSocketUpgradeRequest) -> (any WebSocketReceiver)?

    /// Runs one accepted WebSocket that ``receiver(for:request:)`` left to a task; the connection is
    /// closed (1000) when this returns.
    func handle(_ webSocket: WebSocket, request: WebSocketUpgradeRequest) async

    /// Answers a plain HTTP request (`/healthz`, REST routes, …).
    func respond(to request: HTTPRequest) async -> HTTPResponse

    /// The largest body to accept for a plain HTTP request with this method and (percent-decoded)
    /// path, or nil for the server's ``WebSocketServerConfiguration/maxRequestBodySize``. Asked once the
    /// request head has arrived, before any of the body is read: a request that declares a larger
    /// `Content-Length`, or whose body grows past it, is answered 413 with the limit in the reason and
    /// the connection is closed. Lets an upload route take megabytes while every other route keeps a
    /// small limit. Called on the connection's event loop: it must not block.
    func maxRequestBodySize(method: HTTPMethod, path: String) -> Int?
}

extension WebSocketServerApplication {
    public func maxRequestBodySize(method: HTTPMethod, path: String) -> Int? { nil }

    public func receiver(for connection: WebSocketConnection, request: WebSocketUpgradeRequest) -> (any WebSocketReceiver)? {
        nil
    }
}
