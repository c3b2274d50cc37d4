import NIOCore

/// Received messages: assembled, decompressed and validated; ends when the connection closes.
public struct WebSocketInbound: AsyncSequence, Sendable {
    public typealias Element = WebSocketMessage
    let bridge: WebSocketBridge

    public struct AsyncIterator: AsyncIteratorProtocol {
        let bridge: WebSocketBridge

        /// Never throws; declared `throws` so `for try await` reads naturally at call sites.
        public mutating func next() async throws -> WebSocketMessage? {
            await bridge.next()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bridge: bridge) }
}

/// An open WebSocket connection, server or client side.
///
/// Received messages are ``inbound``, an `AsyncSequence` that ends when the connection closes; it applies
/// backpressure (a consumer that falls behind stops reads from the peer). `send` suspends while the peer
/// is not reading what we already sent, so nothing queues without bound.
public struct WebSocket: Sendable {
    public typealias Inbound = WebSocketInbound

    /// Messages from the peer, assembled, decompressed and validated.
    public let inbound: Inbound
    /// The subprotocol both ends agreed on, if any.
    public let subprotocol: String?
    /// The permessage-deflate parameters in force, if compression was negotiated.
    public let compression: NegotiatedDeflate?
    /// Fires when the server this connection belongs to begins a graceful shutdown (never, for clients).
    public let shutdown: ShutdownSignal

    private let bridge: WebSocketBridge
    private let channel: any Channel
    private let closeRecorder: WebSocketCloseRecorder

    init(
        bridge: WebSocketBridge, channel: any Channel, subprotocol: String?, compression: NegotiatedDeflate?,
        closeRecorder: WebSocketCloseRecorder, shutdown: ShutdownSignal
    ) {
        self.inbound = WebSocketInbound(bridge: bridge)
        self.bridge = bridge
        self.channel = channel
        self.subprotocol = subprotocol
        self.compression = compression
        self.closeRecorder = closeRecorder
        self.shutdown = shutdown
    }

    public var remoteAddress: SocketAddress? { channel.remoteAddress }

    /// How the connection sizes its read buffers (for tests of the server's channel options).
    func receiveBufferAllocator() async throws -> AdaptiveRecvByteBufferAllocator? {
        try await channel.getOption(.recvAllocator).map { $0 as? AdaptiveRecvByteBufferAllocator }.get()
    }
    public var localAddress: SocketAddress? { channel.localAddress }

    public func send(text: String) async throws {
        try await send(.text(text))
    }

    public func send(binary: ByteBuffer) async throws {
        try await send(.binary(binary))
    }

    public func send(_ message: WebSocketMessage) async throws {
        try await write(.message(message))
    }

    /// Sends a message encoded once for many connections (see ``PreparedMessage``).
    public func send(_ prepared: PreparedMessage) async throws {
        try await write(.prepared(prepared))
    }

    public func ping(_ payload: ByteBuffer = ByteBuffer()) async throws {
        try await write(.ping(payload))
    }

    /// Starts the close handshake and returns once the connection is closed: when the peer answers,
    /// or after the configured close timeout. Calling it again, or on a closed connection, just waits.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
        if channel.isActive { channel.writeAndFlush(WebSocketOutbound.close(code, reason), promise: nil) }
        try? await channel.closeFuture.get()
    }

    /// Starts the close handshake without waiting: for callers that cannot suspend (a shutdown
    /// callback). Anything sent after this fails with `WebSocketError.closed`.
    public func beginClose(code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        channel.writeAndFlush(WebSocketOutbound.close(code, reason), promise: nil)
    }

    /// How the connection ended; waits until it has. 1006 when it ended without a close frame.
    public var closeStatus: WebSocketCloseStatus {
        get async {
            try? await channel.closeFuture.get()
            return closeRecorder.recorded ?? .abnormal
        }
    }

    /// Bytes written but not yet taken by the peer's socket: what a slow reader costs us right now.
    public var bufferedOutboundBytes: Int {
        get async { (try? await channel.getOption(.bufferedWritableBytes).get()) ?? 0 }
    }

    /// Whether the underlying connection is still open.
    public var isActive: Bool { channel.isActive }

    /// Hands a frame to the channel without waiting for it to reach the socket: a suspended send is
    /// one waiting for the peer to drain what is already queued (over the high-water mark).
    private func write(_ outbound: WebSocketOutbound) async throws {
        if !channel.isWritable { await bridge.waitUntilWritable() }
        guard channel.isActive, !bridge.isFinished else { throw WebSocketError.closed }
        channel.writeAndFlush(outbound, promise: nil)
    }
}

extension WebSocket {
    /// Runs `body` with an upgraded connection (WebSocket handler installed); when `body` returns, the
    /// connection is closed politely (1000) if it is still open.
    static func run<Result: Sendable>(
        bridge: WebSocketBridge, channel: any Channel, subprotocol: String?, compression: NegotiatedDeflate?,
        closeRecorder: WebSocketCloseRecorder, shutdown: ShutdownSignal, _ body: (WebSocket) async throws -> Result
    ) async throws -> Result {
        let webSocket = WebSocket(
            bridge: bridge, channel: channel, subprotocol: subprotocol, compression: compression,
            closeRecorder: closeRecorder, shutdown: shutdown)
        return try await onEventLoop(of: channel) {
            let result: Result
            do {
                result = try await body(webSocket)
            } catch {
                await webSocket.close(code: .internalError)
                throw error
            }
            await webSocket.close()
            return result
        }
    }
}
