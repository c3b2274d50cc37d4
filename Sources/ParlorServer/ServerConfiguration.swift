import NIOCore
import WebSocketCore

/// Everything `parlor-server` can be told. The command line only maps flags onto this; each field has
/// the default the server runs with.
public struct ServerConfiguration: Sendable {
    /// How the one port listens and what it accepts: host and port, the WebSocket limits and timers, the
    /// HTTP head and body limits, the handshake timeout, the shutdown grace and the allowed origins. See
    /// ``defaultListener`` for Parlor's values. The server fills in two fields itself: `maxConnections`
    /// (from `limits.maxConnections` and the open-file limit) and, when `tls` is set, `tls`.
    public var listener: WebSocketServerConfiguration = ServerConfiguration.defaultListener
    /// Mount `/echo`, which echoes every WebSocket message (conformance runs and benchmarks).
    public var echo: Bool = false
    /// Serve wss:// and https:// with this PEM certificate chain and key.
    public var tls: TLSFiles?
    /// Where the store keeps its database (and so the token secret, rooms and history). Created if missing.
    public var dataDirectory: String = "./parlor-data"
    /// Keep everything in memory only. For benchmarks that measure what durability costs; a restart
    /// loses every room.
    public var persist: Bool = true
    /// A room with nobody connected and no change for this long is deleted (its game, if finished, stays
    /// in the players' history).
    public var roomExpiry: TimeAmount = .hours(24)
    /// How often abandoned rooms are looked for.
    public var expirySweepInterval: TimeAmount = .minutes(1)
    /// On shutdown, a WebSocket client is closed (1001) once it has sent nothing for this long, so that
    /// requests crossing the shutdown are answered (with SHUTTING_DOWN) rather than lost behind the close
    /// frame. The listener's grace period still bounds the whole shutdown.
    public var shutdownQuietPeriod: TimeAmount = .milliseconds(250)
    /// Limits on what clients control.
    public var limits = Limits()
    /// Word lobbies and the game catalog: the word list, lobby capacity and limits, the catalog poll.
    public var wordGames = WordGameConfiguration()

    public struct Limits: Sendable {
        /// Connections held at once; more are closed as they arrive. Nil: as many as the process's
        /// open-file limit allows (which the server raises at start), less a reserve.
        public var maxConnections: Int?
        /// Rooms the server holds at once; creating more fails with NO_FREE_CODE.
        public var maxRooms: Int = 100_000
        /// Subscriptions one connection may hold.
        public var maxSubscriptionsPerConnection: Int = 32
        /// Requests a connection may send in a burst, and the steady rate after it; more get RATE_LIMITED.
        public var requestBurst: Int = 60
        public var requestsPerSecond: Int = 30

        public init() {}
    }

    public struct TLSFiles: Sendable {
        public var certificatePath: String
        public var privateKeyPath: String

        public init(certificatePath: String, privateKeyPath: String) {
            self.certificatePath = certificatePath
            self.privateKeyPath = privateKeyPath
        }
    }

    public init() {}

    /// Parlor's listener. Every value is spelled out, even where it matches WebSocketCore's default, so
    /// that a change there cannot silently change what `parlor-server` accepts.
    public static var defaultListener: WebSocketServerConfiguration {
        var listener = WebSocketServerConfiguration()
        // Loopback until the operator opens the server to the network (0.0.0.0); port 0 picks a free one,
        // printed at start-up.
        listener.host = "127.0.0.1"
        listener.port = 8080
        // Parlor's messages are small JSON documents, so the message limit is far below WebSocketCore's
        // general default.
        listener.webSocket = WebSocketConfiguration().withMessageLimit(64 * 1024)
        listener.webSocket.pingInterval = .seconds(30)
        listener.webSocket.idleTimeout = .seconds(75)
        listener.maxHeaderSize = 16 * 1024
        // REST and callable-function bodies are small JSON documents too.
        listener.maxRequestBodySize = 64 * 1024
        listener.handshakeTimeout = .seconds(10)
        // On SIGTERM, connections get this long to finish before they are closed with 1001.
        listener.shutdownGracePeriod = .seconds(10)
        listener.allowedOrigins = .any
        listener.serverHeader = "Parlor"
        return listener
    }
}
