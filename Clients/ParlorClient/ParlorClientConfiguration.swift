import Logging
import ParlorWire
import SystemTLS
import WebSocketCore

/// How a ``ParlorClient`` connects, signs in and recovers. Every field has a documented default.
public struct ParlorClientConfiguration: Sendable {
    /// The server to talk to (default: `ws://localhost:8080/ws`).
    public var server: ServerAddress = .localDefault
    /// Where the sign-in token is kept between runs, per server, so a restarted client is the same user
    /// (and keeps its seats). Default: in memory only — a new user every run.
    public var tokenStore: any TokenStore = InMemoryTokenStore()
    /// For a server that signs players in with their accounts (`--auth-config`): the account's JWT (a
    /// Supabase access token, a Firebase ID token). Asked for at every sign-in (`hello {jwt}`, also after
    /// a reconnect) and again whenever the server says the one in use has expired (`tokenExpired`,
    /// answered with `refreshAuth {jwt}`), so a long session outlives any one token. It may refresh the
    /// token itself (the provider's SDK does); what it throws fails that sign-in. Nil (the default):
    /// the stored Parlor token, or a new anonymous user.
    public var tokenProvider: (@Sendable () async throws -> String)?
    /// A name that keeps several identities apart in one token store ("bo", "cy"); nil is the default
    /// identity.
    public var profile: String?
    /// How long a request may take, counting any wait for the connection to come back; then it fails
    /// with `.timeout` (or `.notConnected` if it never got a connection).
    public var requestTimeout: Duration = .seconds(10)
    /// Retrying a lost connection.
    public var reconnect = ReconnectPolicy()
    /// Until the client has signed in once, a failed connection attempt (nothing listening, a host that
    /// does not resolve, a refused handshake) fails the requests waiting for it at once, with its reason,
    /// instead of at the request timeout: a person who mistyped the server hears so now. Once signed in,
    /// requests wait out a reconnect as before. Default: off (requests wait).
    public var failsFastUntilConnected = false
    /// Access arguments sent beside the arguments of every request (`GameAccessRequest`): a client that
    /// is to create a private game or one whose spectators are limited, or to join with an invitation,
    /// sets them once (as the terminal's `--private`, `--spectators` and `--invite` do). The server reads
    /// them where they apply — a create reads `private` and `spectators`, a join `invite` — and nowhere
    /// else. Default: none. ``ParlorClient/call(_:_:access:)`` sends them for one request instead.
    public var gameAccess: GameAccessRequest?
    /// Requests waiting for an answer at once; more fail with `.tooManyPendingRequests`.
    public var maxPendingRequests = 256
    /// Updates buffered per stream for a consumer that is behind, by the stream's kind
    /// (``GameStream/kind``); a kind not listed buffers its stream's own default (1 for a game's view,
    /// a few more where public and private views interleave). Views conflate: when the buffer is full
    /// the oldest is dropped, so a slow reader sees the newest view, never a backlog.
    public var eventBuffers: [String: Int] = [:]
    /// How long a photo upload may take, from connecting to the server's answer (it decodes and tiles
    /// the photo before answering).
    public var uploadTimeout: Duration = .seconds(120)
    /// The WebSocket connection: timeouts, limits, keepalive pings, `tls` for `wss://` (nil: the system
    /// CA store), and `localAddress` to bind the local end (a load generator spreads connections over
    /// loopback addresses with it).
    public var webSocket: WebSocketClientConfiguration = {
        var configuration = WebSocketClientConfiguration()
        configuration.connectTimeout = .seconds(5)
        configuration.handshakeTimeout = .seconds(5)
        configuration.webSocket.closeTimeout = .seconds(1)
        return configuration
    }()
    /// Diagnostics; by default nothing is logged (a full-screen terminal client must not be written over).
    public var logger = Logger(label: "parlor.client", factory: { _ in SwiftLogNoOpLogHandler() })
    /// Draws the jitter of reconnect delays, in 0..<1.
    public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }
    /// Waits between reconnect attempts. Tests replace it to run backoff without real time passing.
    public var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }

    public init(server: ServerAddress = .localDefault) {
        self.server = server
    }

    /// permessage-deflate on or off (on by default).
    public var compression: Bool {
        get { webSocket.webSocket.compression != nil }
        set { webSocket.webSocket.compression = newValue ? (webSocket.webSocket.compression ?? PerMessageDeflateConfiguration()) : nil }
    }

    /// Binds the local end of the connection to this address; nil lets the system pick.
    public var localAddress: String? {
        get { webSocket.localAddress }
        set { webSocket.localAddress = newValue }
    }

    /// For `wss://`: trust the CA certificates in the PEM file at `path` instead of the system store (a
    /// server with a certificate from its own CA).
    public mutating func trustCertificateAuthorities(inFile path: String) throws(ParlorClientError) {
        do {
            webSocket.tls = try TLSClientContext(configuration: TLSClientConfiguration(trustRoots: .file(path)))
        } catch {
            throw .invalidConfiguration("Cannot use \(path) as CA certificates: \(error)")
        }
    }

    /// The key the token is stored under: the server URL, plus `#profile` for a named identity.
    public var tokenKey: String {
        guard let profile, !profile.isEmpty else { return server.url }
        return "\(server.url)#\(profile)"
    }
}
