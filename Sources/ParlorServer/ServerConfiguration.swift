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
