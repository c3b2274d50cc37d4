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

/// An open WebSocket connection, server or client side, driven by a task.
///
/// Received messages are ``inbound``, an `AsyncSequence` that ends when the connection closes; it applies
/// backpressure (a consumer that falls behind stops reads from the peer). `send` suspends while the peer
/// is not reading what we already sent, so nothing queues without bound.
public struct WebSocket: Sendable {
    public typealias Inbound = WebSocketInbound

    /// Messages from the peer, assembled, decompressed and validated.
    public let inbound: Inbound
    /// The connection underneath, for callers that write without suspending.
    public let connection: WebSocketConnection

    private let bridge: WebSocketBridge

    init(connection: WebSocketConnection, bridge: WebSocketBridge) {
        self.inbound = WebSocketInbound(bridge: bridge)
        self.connection = connection
        self.bridge = bridge
    }

    /// The subprotocol both ends agreed on, if any.
    public var subprotocol: String? { connection.subprotocol }
    /// The permessage-deflate parameters in force, if compression was negotiated.
    public var compression: NegotiatedDeflate? { connection.compression }
    /// Fires when the server this connection belongs to begins a graceful shutdown (never, for clients).
    public var shutdown: ShutdownSignal { connection.shutdown }
    public var remoteAddress: SocketAddress? { connection.remoteAddress }
    public var localAddress: SocketAddress? { connection.localAddress }

    /// How the connection sizes its read buffers (for tests of the server's channel options).
    func receiveBufferAllocator() async throws -> AdaptiveRecvByteBufferAllocator? {
        try await connection.channel.getOption(.recvAllocator).map { $0 as? AdaptiveRecvByteBufferAllocator }.get()
    }

    public func send(text: String) async throws {
        try await send(.text(text))
    }

    public func send(binary: ByteBuffer) async throws {
        try await send(.binary(binary))
    }

    public func send(_ message: WebSocketMessage) async throws {
        try await whenWritable()
        connection.send(message)
    }

    /// Sends a message encoded once for many connections (see ``PreparedMessage``).
    public func send(_ prepared: PreparedMessage) async throws {
        try await whenWritable()
        connection.send(prepared)
    }

    public func ping(_ payload: ByteBuffer = ByteBuffer()) async throws {
        guard payload.readableBytes <= 125 else { throw WebSocketError.controlPayloadTooLarge }
        try await whenWritable()
        connection.ping(payload)
    }

    /// Starts the close handshake and returns once the connection is closed: when the peer answers,
    /// or after the configured close timeout. Calling it again, or on a closed connection, just waits.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
        if connection.isActive { connection.close(code: code, reason: reason) }
        try? await connection.closeFuture.get()
    }

    /// Starts the close handshake without waiting: for callers that cannot suspend (a shutdown
    /// callback). Anything sent after this fails with `WebSocketError.closed`.
    public func beginClose(code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        connection.close(code: code, reason: reason)
    }

    /// How the connection ended; waits until it has. 1006 when it ended without a close frame.
    public var closeStatus: WebSocketCloseStatus {
        get async {
            try? await connection.closeFuture.get()
            return connection.closeRecorder.recorded ?? .abnormal
        }
    }

    /// Bytes written but not yet taken by the peer's socket: what a slow reader costs us right now.
    public var bufferedOutboundBytes: Int {
        get async { (try? await connection.channel.getOption(.bufferedWritableBytes).get()) ?? 0 }
    }

    /// Whether the underlying connection is still open.
    public var isActive: Bool { connection.isActive }

    /// Hands the connection's inbound side to `receiver`, which is told of every message from now on, on
    /// the event loop, without a task: messages not yet read from ``inbound`` go to it first, and
    /// ``inbound`` ends. For a client that sets up with requests and replies, then only listens.
    public func handOver(to receiver: any WebSocketReceiver) async {
        let bridge = self.bridge
        let connection = self.connection
        try? await connection.eventLoop.submit {
            let (messages, violation) = bridge.detach()
            connection.adopt(receiver, replaying: messages, violation: violation)
        }.get()
    }

    /// Returns once a frame may be handed to the channel without waiting for it to reach the socket: a
    /// suspended send is one waiting for the peer to drain what is already queued (over the high-water
    /// mark).
    private func whenWritable() async throws {
        if !connection.isWritable { await bridge.waitUntilWritable() }
        guard connection.isActive, !bridge.isFinished else { throw WebSocketError.closed }
    }
}

extension WebSocket {
    /// Runs `body` with an upgraded connection whose receiver is `bridge`; when `body` returns, the
    /// connection is closed politely (1000) if it is still open.
    static func run<Result: Sendable>(
        connection: WebSocketConnection, bridge: WebSocketBridge, _ body: (WebSocket) async throws -> Result
    ) async throws -> Result {
        try await run(WebSocket(connection: connection, bridge: bridge), body)
    }

    /// Runs `body` with `webSocket`, preferring its event loop; when `body` returns, the connection is
    /// closed politely (1000) if it is still open.
    static func run<Result: Sendable>(_ webSocket: WebSocket, _ body: (WebSocket) async throws -> Result) async throws -> Result {
        let connection = webSocket.connection
        return try await onEventLoop(of: connection.channel) {
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
