import NIOCore
import Synchronization

/// An open WebSocket connection, driven without a task: its ``WebSocketReceiver`` is told what arrives,
/// and anyone holding it writes straight into the channel.
///
/// Every method may be called from any thread. On the connection's event loop a write goes into the
/// channel at once; from elsewhere it hops to the loop first (in the order the calls were made).
/// Writes never wait: a caller that must not outrun a slow peer checks ``isWritable`` (false above the
/// outbound high-water mark) and holds back until its receiver hears that it is writable again.
public final class WebSocketConnection: Sendable {
    let channel: any Channel
    let closeRecorder: WebSocketCloseRecorder
    private let handler: NIOLoopBound<WebSocketChannelHandler>
    /// The subprotocol both ends agreed on, if any.
    public let subprotocol: String?
    /// The permessage-deflate parameters in force, if compression was negotiated.
    public let compression: NegotiatedDeflate?
    /// Fires when the server this connection belongs to begins a graceful shutdown (never, for clients).
    public let shutdown: ShutdownSignal

    init(
        channel: any Channel, handler: WebSocketChannelHandler, closeRecorder: WebSocketCloseRecorder,
        subprotocol: String?, compression: NegotiatedDeflate?, shutdown: ShutdownSignal
    ) {
        self.channel = channel
        self.handler = NIOLoopBound(handler, eventLoop: channel.eventLoop)
        self.closeRecorder = closeRecorder
        self.subprotocol = subprotocol
        self.compression = compression
        self.shutdown = shutdown
    }

    public var eventLoop: any EventLoop { channel.eventLoop }
    public var remoteAddress: SocketAddress? { channel.remoteAddress }
    public var localAddress: SocketAddress? { channel.localAddress }
    /// Whether the underlying connection is still open.
    public var isActive: Bool { channel.isActive }
    /// Whether the peer is taking what we send: false while more than the outbound high-water mark is
    /// queued for it.
    public var isWritable: Bool { closeRecorder.writable.load(ordering: .relaxed) }

    /// Queues a message encoded once for many connections (see ``PreparedMessage``); ``flush()`` sends it.
    public func write(_ prepared: PreparedMessage) {
        write(.prepared(prepared))
    }

    /// Queues a message; ``flush()`` sends it.
    public func write(_ message: WebSocketMessage) {
        write(.message(message))
    }

    /// Sends everything queued. On the event loop the flush waits for the work already queued there, so
    /// frames written to this connection meanwhile go out in the same system call.
    public func flush() {
        if channel.eventLoop.inEventLoop {
            handler.value.flushSoon()
        } else {
            channel.flush()
        }
    }

    /// Queues and sends a prepared message.
    public func send(_ prepared: PreparedMessage) {
        write(prepared)
        flush()
    }

    /// Queues and sends a message.
    public func send(_ message: WebSocketMessage) {
        write(message)
        flush()
    }

    private func write(_ outbound: WebSocketOutbound) {
        if channel.eventLoop.inEventLoop {
            handler.value.write(outbound)
        } else {
            channel.write(outbound, promise: nil)
        }
    }

    /// Sends a ping (at most 125 bytes of payload; a larger one is not sent).
    public func ping(_ payload: ByteBuffer = ByteBuffer()) {
        channel.writeAndFlush(WebSocketOutbound.ping(payload), promise: nil)
    }

    /// Starts the close handshake without waiting. Anything written after this is dropped.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        channel.writeAndFlush(WebSocketOutbound.close(code, reason), promise: nil)
    }

    /// Completes once the connection is closed.
    public var closeFuture: EventLoopFuture<Void> { channel.closeFuture }

    /// How the connection ended, once it has (1006 when it ended without a close frame); nil while open.
    public var closeStatus: WebSocketCloseStatus? {
        channel.isActive ? nil : (closeRecorder.recorded ?? .abnormal)
    }

    /// Reading from the peer resumes after the receiver answered ``WebSocketReadDemand/pause``.
    public func resumeReading() {
        onLoop { $0.resumeReading() }
    }

    /// After ``WebSocketReceiver/receivedProtocolViolation()``: the receiver has answered everything it
    /// was given, so the connection may now fail with the violation's close code.
    public func proceedWithFailure() {
        onLoop { $0.proceedWithFailure() }
    }

    /// The connection for a channel that has just upgraded, with its handler. The caller sets the
    /// handler's receiver, then adds the handler to the pipeline.
    static func upgrading(
        _ channel: any Channel, role: WebSocketRole, configuration: WebSocketConfiguration, deflate: NegotiatedDeflate?,
        subprotocol: String?, shutdown: ShutdownSignal
    ) -> (WebSocketConnection, WebSocketChannelHandler) {
        let closeRecorder = WebSocketCloseRecorder()
        let handler = WebSocketChannelHandler(
            role: role, configuration: configuration, deflate: deflate, closeRecorder: closeRecorder)
        let connection = WebSocketConnection(
            channel: channel, handler: handler, closeRecorder: closeRecorder, subprotocol: subprotocol,
            compression: deflate, shutdown: shutdown)
        return (connection, handler)
    }

    /// On the event loop: `receiver` takes over from the current receiver (see ``WebSocket/handOver(to:)``).
    func adopt(_ receiver: any WebSocketReceiver, replaying messages: [WebSocketMessage], violation: Bool) {
        handler.value.adopt(receiver, replaying: messages, violation: violation)
    }

    private func onLoop(_ body: @escaping @Sendable (WebSocketChannelHandler) -> Void) {
        if channel.eventLoop.inEventLoop {
            body(handler.value)
        } else {
            let handler = self.handler
            channel.eventLoop.execute { body(handler.value) }
        }
    }
}
