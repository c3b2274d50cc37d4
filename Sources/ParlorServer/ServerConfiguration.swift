import NIOCore
import WebSocketCore

/// Everything `parlor-server` can be told. The command line only maps flags onto this; each field has
/// the default the server runs with.
public struct ServerConfiguration: Sendable {
    /// Address to listen on. `127.0.0.1` keeps the server on loopback; `0.0.0.0` opens it to the network.
    public var host: String = "127.0.0.1"
    /// Port to listen on; 0 picks a free one (printed at start-up).
    public var port: Int = 8080
    /// Mount `/echo`, which echoes every WebSocket message (conformance runs and benchmarks).
    public var echo: Bool = false
    /// Serve wss:// and https:// with this PEM certificate chain and key.
    public var tls: TLSFiles?
    /// Transport limits and timers. Parlor's messages are small JSON documents, so the message limit is
    /// far below WebSocketCore's general default.
    public var webSocket: WebSocketConfiguration = {
        var configuration = WebSocketConfiguration().withMessageLimit(64 * 1024)
        configuration.pingInterval = .seconds(30)
        configuration.idleTimeout = .seconds(75)
        return configuration
    }()
    /// The largest HTTP request head accepted.
    public var maxHeaderSize: Int = 16 * 1024
    /// Time a new connection has to send a complete request.
    public var handshakeTimeout: TimeAmount = .seconds(10)
    /// On SIGTERM, time connections get to finish before they are closed with 1001.
    public var shutdownGracePeriod: TimeAmount = .seconds(10)
    /// Browser origins allowed to open WebSockets.
    public var allowedOrigins: OriginPolicy = .any
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
        /// The largest HTTP request body (REST and callable functions).
        public var maxRequestBodySize: Int = 64 * 1024

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
}
