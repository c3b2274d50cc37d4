import NIOCore

/// Limits and timers of a WebSocket connection, both sides. Every field has a default suited to a game
/// server: small JSON messages, many connections, peers on phones that vanish without a close.
public struct WebSocketConfiguration: Sendable {
    /// The largest payload accepted in one frame. Larger frames fail the connection with 1009 as soon
    /// as their header arrives.
    public var maxFrameSize: Int = 1 << 20
    /// The largest message accepted, summed over its fragments as received. Larger → 1009.
    public var maxMessageSize: Int = 1 << 20
    /// The largest a compressed message may grow when inflated (the zip-bomb guard). Larger → 1009.
    public var maxDecompressedMessageSize: Int = 1 << 20
    /// permessage-deflate, or nil to never negotiate it.
    public var compression: PerMessageDeflateConfiguration? = PerMessageDeflateConfiguration()
    /// Send a ping when nothing has been received for this long; nil turns keepalive pings off.
    public var pingInterval: TimeAmount? = .seconds(30)
    /// Close a connection from which nothing (not even a pong) has arrived for this long; nil: never.
    public var idleTimeout: TimeAmount? = .seconds(75)
    /// How long to wait for the peer's close frame (and, for clients, the server's TCP close) after
    /// ours before dropping the connection.
    public var closeTimeout: TimeAmount = .seconds(5)
    /// Above this many bytes queued for a peer, the connection stops reading from it (and `send`
    /// waits) until the queue drains below `outboundLowWaterMark`.
    public var outboundHighWaterMark: Int = 256 * 1024
    public var outboundLowWaterMark: Int = 64 * 1024
    /// Received messages buffered for a consumer that is behind; above the high mark reading stops.
    public var inboundHighWaterMark: Int = 16
    public var inboundLowWaterMark: Int = 4

    public init() {}

    /// The same limits, with frame, message and decompressed sizes all set to `bytes`.
    public func withMessageLimit(_ bytes: Int) -> WebSocketConfiguration {
        var copy = self
        copy.maxFrameSize = bytes
        copy.maxMessageSize = bytes
        copy.maxDecompressedMessageSize = bytes
        return copy
    }
}
