import NIOCore
import ParlorAuth
import WebSocketCore

/// Everything `parlor-server` can be told. The command line only maps flags onto this; each field has
/// the default the server runs with.
public struct ServerConfiguration: Sendable {
    /// How the one port listens and what it accepts: host and port, the WebSocket limits and timers, the
    /// HTTP head and body limits, the handshake timeout, the shutdown grace and the allowed origins. See
    /// ``defaultListener`` for Parlor's values. The server fills in some fields itself: `maxConnections`
    /// (from `limits.maxConnections` and the open-file limit), `maxConnectionsPerAddress` and
    /// `addressLimitExemptions` (from `limits`) and, when `tls` is set, `tls`.
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
    /// Keep every new game's record (docs/ARCHITECTURE.md, "Game records"). Off only to measure what
    /// records cost (`--no-game-records`, a hidden benchmark aid: `Loadtest/record-cost.sh`); games
    /// created meanwhile never get a record.
    public var gameRecords: Bool = true
    /// Keep everything in this PostgreSQL database instead of SQLite under `dataDirectory`: several
    /// nodes may share it (`--postgres`, `PARLOR_POSTGRES`). Nil: SQLite, as always.
    public var postgres: PostgresLocation?
    /// Under load, how long the store's writer waits before its next commit so that more saves share it
    /// (SQLite's and PostgreSQL's alike: `SQLiteStoreConfiguration.commitDelay`). Only when the commit
    /// before held several saves and more are queued; a quiet server never waits. Zero turns it off.
    public var commitDelay: Duration = SQLiteStoreConfiguration().commitDelay
    /// This node among a cluster's (with `postgres`): its name, its heartbeat, how it drains.
    public var cluster = Cluster()
    /// A room with nobody connected and no change for this long is deleted (its game, if finished, stays
    /// in the players' history).
    public var roomExpiry: TimeAmount = .hours(24)
    /// A game nobody joined — its only member is its creator (or nobody) — with nobody connected and no
    /// change for this long is deleted: an abandoned empty room should not hold a code, memory and its
    /// creator's quota for a day.
    public var unjoinedGameExpiry: TimeAmount = .minutes(10)
    /// How often abandoned rooms are looked for.
    public var expirySweepInterval: TimeAmount = .minutes(1)
    /// How often the log gets one `info` line of connections opened and closed and errors answered by
    /// code (nothing when nothing happened).
    public var activitySummaryInterval: Duration = .seconds(60)
    /// On shutdown, a WebSocket client is closed (1001) once it has sent nothing for this long, so that
    /// requests crossing the shutdown are answered (with SHUTTING_DOWN) rather than lost behind the close
    /// frame. The listener's grace period still bounds the whole shutdown.
    public var shutdownQuietPeriod: TimeAmount = .milliseconds(250)
    /// Who may sign in, and with which accounts (`--auth-config`): anonymous only by default.
    public var auth = AuthConfiguration()
    /// Limits on what clients control.
    public var limits = Limits()
    /// Each game's own settings, by type; each game names its own on this struct (in its folder).
    public var games = GameConfigurations()
    /// The operators' listener and what guards `/metrics`.
    public var admin = Admin()
    /// When the server gives memory that closed connections freed back to the system.
    public var memory = MemoryReclaim()

    public struct Limits: Sendable {
        /// Connections held at once; more are closed as they arrive. Nil: as many as the process's
        /// open-file limit allows (which the server raises at start), less a reserve.
        public var maxConnections: Int?
        /// Connections one client address (an IPv4 address, or an IPv6 /64) may hold at once; more from
        /// it are closed as they arrive, and other addresses still connect. Nil: no per-address cap.
        public var maxConnectionsPerAddress: Int? = 256
        /// Rooms the server holds at once; creating more fails with NO_FREE_CODE.
        public var maxRooms: Int = 100_000
        /// Live games one user may own at once, across every kind (rooms, lobbies, …); creating more
        /// fails with QUOTA_EXCEEDED. A game counts against its creator (or whoever it passed to when
        /// they left) until it is deleted, expires or finishes.
        public var maxGamesPerUser: Int = 10
        /// Subscriptions one connection may hold.
        public var maxSubscriptionsPerConnection: Int = 32
        /// Friend requests and friendships one user may have at once, sent and received together; past
        /// it, asking (or being asked) fails with TOO_MANY_FRIENDS. Bounds a friends list and what one
        /// person can send to strangers.
        public var maxFriendships: Int = 500
        /// Requests one user may send in a burst, and the steady rate after it, across all their
        /// connections and HTTP requests together; more get RATE_LIMITED (HTTP 429 with Retry-After).
        public var requestBurst: Int = 60
        public var requestsPerSecond: Double = 30
        /// The same for one client address, across every user on it (a household or an office shares
        /// one address, so this is higher).
        public var addressRequestBurst: Int = 600
        public var addressRequestsPerSecond: Double = 300
        /// Addresses the per-address limits (connections and requests) do not apply to: a load
        /// generator on loopback (`127.0.0.0/8`), a trusted reverse proxy. Per-user limits still apply.
        public var exemptAddresses: [AddressRange] = []

        public init() {}
    }

    /// Operators keep their view of the server when client connections are exhausted: a second,
    /// HTTP-only listener serving `/healthz` and `/metrics` with connection slots of its own, and a
    /// token that `/metrics` can require.
    public struct Admin: Sendable {
        /// The admin listener's port; nil: no admin listener (the routes stay on the main port too).
        /// 0 picks a free one.
        public var port: Int?
        /// Plain HTTP, so loopback unless the operator's network is private.
        public var host: String = "127.0.0.1"
        /// Connections the admin listener holds at once (the server keeps descriptors back for them).
        public var maxConnections: Int = 64
        /// When set, `/metrics` (on either port) needs `Authorization: Bearer <token>`.
        public var token: String?
        /// What `/admin` and `/admin/api/…` require when `token` is nil (parlor-server makes one at
        /// start-up and prints it); with neither, the admin API refuses everyone.
        public var pageToken: String?
        /// `/healthz` writes to the store to learn whether it can, when nothing has been written for this
        /// long; in between it reports how the last write went (a failed save makes it unhealthy).
        public var storeProbeInterval: TimeAmount = .seconds(5)

        public init() {}
    }

    /// Connections come and go in waves (a reconnect storm, an evening's peak, a flood from one
    /// address); what they freed stays with the C library's allocator, counted in the server's resident
    /// memory, until it is handed back. The server hands it back once the open connections have fallen
    /// well below their peak since the last time: both a number and a share must be met, so steady
    /// churn never triggers it.
    public struct MemoryReclaim: Sendable {
        /// Off: freed memory stays with the allocator for reuse.
        public var enabled = true
        /// How often the open connections are counted.
        public var checkInterval: TimeAmount = .seconds(1)
        /// Give memory back once the open connections are at least this many below their peak…
        public var minimumDrop: Int = 1000
        /// …and at least this share of it (0.5: half of the peak's connections have gone).
        public var dropFraction: Double = 0.5
        /// At most once per this long: handing memory back walks every arena under its lock, which
        /// holds up allocations on other threads for milliseconds.
        public var minimumSpacing: TimeAmount = .seconds(10)

        public init() {}
    }

    /// A node of a cluster (`--postgres`): each game is served by one node, which the front routes the
    /// game's players to by the node's name (`/ws?node=NAME`).
    public struct Cluster: Sendable {
        /// This node's name: the front's name for it (HAProxy's `server` name), unique in the cluster,
        /// the same across restarts. Nil: the machine's host name.
        public var nodeName: String?
        /// How often the node records that it is alive and reads which nodes are.
        public var heartbeat: Duration = .seconds(1)
        /// A node whose last beat is older than this is taken for dead: other nodes take its games.
        public var deadAfter: Duration = .seconds(3)
        /// On SIGTERM a node drains: it says so on `/healthz` and `/readyz` and refuses new WebSockets
        /// (503, which the front retries on another node), lets go of its games, and closes its clients
        /// with 1012 so that they reconnect to another node. It keeps answering for at least this long,
        /// so that the front's checks see it draining rather than gone, and exits once its clients have
        /// left (or when the shutdown grace period ends).
        public var drainNotice: Duration = .seconds(3)
        /// A copy of a game another node serves, with nobody here watching it, is dropped from memory
        /// after about this long (it is read again if it is needed).
        public var idleCopyLifetime: Duration = .seconds(60)

        public init() {}

        /// Letters, digits, `-`, `_` and `.`, at most 40: it names a notification channel and a
        /// front's server.
        public static func isValidNodeName(_ name: String) -> Bool {
            !name.isEmpty && name.utf8.count <= 40
                && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) }
        }
    }

    public struct TLSFiles: Sendable {
        public var certificatePath: String
        public var privateKeyPath: String
        /// How often the two files are looked at for a change (a renewal that sent no SIGHUP); nil: only
        /// on SIGHUP (`ParlorServer.reloadCertificate`).
        public var changeCheckInterval: Duration? = .seconds(60)

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
