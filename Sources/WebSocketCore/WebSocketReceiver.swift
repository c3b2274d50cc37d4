/// Whether the connection should keep reading from the peer after a message.
public enum WebSocketReadDemand: Sendable {
    /// Keep reading.
    case more
    /// Stop reading from the peer until ``WebSocketConnection/resumeReading()``: the receiver is behind.
    case pause
}

/// Whoever owns an open connection's inbound side: told of each message and of every change of the
/// connection, on the connection's event loop, in order, with nothing in between — no task, no queue
/// of its own. An idle connection served this way costs only the connection's memory.
///
/// ``WebSocket`` (the `AsyncSequence` interface) is built on one; a server application can instead
/// take an upgraded connection's events directly (``WebSocketServerApplication/receiver(for:request:)``).
public protocol WebSocketReceiver: AnyObject, Sendable {
    /// A message from the peer: assembled, decompressed and validated.
    func received(_ message: WebSocketMessage) -> WebSocketReadDemand

    /// The peer broke the protocol right after the messages already delivered; no more will come. The
    /// connection is failed (a close frame with the violation's code, then TCP close) once the
    /// receiver has answered what it was given and calls ``WebSocketConnection/proceedWithFailure()``
    /// — or after the close timeout if it never does. Answers to earlier messages thus go out before
    /// the close, and nothing after the violation is processed (Autobahn's strict behaviour).
    func receivedProtocolViolation()

    /// The connection's outbound buffer crossed a water mark: false above the high mark (the peer is
    /// not reading what we send), true again below the low mark.
    func writabilityChanged(isWritable: Bool)

    /// The server this connection belongs to has begun a graceful shutdown.
    func serverShuttingDown()

    /// The connection is closed; nothing more follows. `status` is how it ended (1006 without a close
    /// handshake).
    func closed(_ status: WebSocketCloseStatus)
}
