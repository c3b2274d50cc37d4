import NIOCore

/// An open WebSocket connection, server or client side.
///
/// Received messages are ``inbound``, an `AsyncSequence` that ends when the connection closes; it applies
/// backpressure (a consumer that falls behind stops reads from the peer). `send` suspends while the peer
/// is not reading what we already sent, so nothing queues without bound.
public struct WebSocket: Sendable {
    public typealias Inbound = NIOAsyncChannelInboundStream<WebSocketMessage>

    /// Messages from the peer, assembled, decompressed and validated.
    public let inbound: Inbound
    /// The subprotocol both ends agreed on, if any.
    public let subprotocol: String?
    /// The permessage-deflate parameters in force, if compression was negotiated.
    public let compression: NegotiatedDeflate?
    /// Fires when the server this connection belongs to begins a graceful shutdown (never, for clients).
    public let shutdown: ShutdownSignal

    private let outbound: NIOAsyncChannelOutboundWriter<WebSocketOutbound>
    private let channel: any Channel
    private let closeRecorder: WebSocketCloseRecorder

    init(
        inbound: Inbound, outbound: NIOAsyncChannelOutboundWriter<WebSocketOutbound>, channel: any Channel,
        subprotocol: String?, compression: NegotiatedDeflate?, closeRecorder: WebSocketCloseRecorder,
        shutdown: ShutdownSignal
    ) {
        self.inbound = inbound
        self.outbound = outbound
        self.channel = channel
        self.subprotocol = subprotocol
        self.compression = compression
        self.closeRecorder = closeRecorder
        self.shutdown = shutdown
    }

    public var remoteAddress: SocketAddress? { channel.remoteAddress }
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
        try? await outbound.write(.close(code, reason))
        try? await channel.closeFuture.get()
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

    private func write(_ outbound: WebSocketOutbound) async throws {
        do {
            try await self.outbound.write(outbound)
        } catch let error as WebSocketError {
            throw error
        } catch {
            // The writer reports a finished or closed channel in several ways; to callers it is one thing.
            throw WebSocketError.closed
        }
    }
}

extension WebSocket {
    /// Wraps an upgraded channel (WebSocket handler installed) for the async world and runs `body`;
    /// when `body` returns the connection is closed politely (1000) if it is still open.
    static func run<Result: Sendable>(
        channel asyncChannel: NIOAsyncChannel<WebSocketMessage, WebSocketOutbound>, rawChannel: any Channel,
        subprotocol: String?, compression: NegotiatedDeflate?, closeRecorder: WebSocketCloseRecorder,
        shutdown: ShutdownSignal, _ body: (WebSocket) async throws -> Result
    ) async throws -> Result {
        try await asyncChannel.executeThenClose { inbound, outbound in
            let webSocket = WebSocket(
                inbound: inbound, outbound: outbound, channel: rawChannel, subprotocol: subprotocol,
                compression: compression, closeRecorder: closeRecorder, shutdown: shutdown)
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
