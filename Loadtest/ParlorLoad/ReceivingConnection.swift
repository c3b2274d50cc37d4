import NIOCore
import ParlorWire
import Synchronization
import WebSocketCore

/// A generator connection whose inbound side is a receiver on the connection's event loop: a request
/// is matched to its reply by id, every other frame goes to an event handler. No task reads it, so a
/// member that sits in a room for minutes, acting now and then, costs no task while it waits.
///
/// `LoadConnection` reads with `inbound.next()` and so can only be read by whoever is awaiting a reply;
/// this one can be asked from anywhere while events keep flowing to their handler.
final class ReceivingConnection: WebSocketReceiver {
    /// A reply: the frame as scanned, and its bytes for decoding a result.
    struct Reply: Sendable {
        var frame: ScannedFrame
        var data: ByteBuffer
    }

    private struct Pending {
        var continuation: CheckedContinuation<Reply, any Error>
        /// Fails the request when no reply came in time; cancelled by the reply.
        var timer: Scheduled<Void>
    }

    private struct State {
        var lastID: Int64 = 0
        var pending: [Int64: Pending] = [:]
        var closed: WebSocketCloseStatus?
    }

    let connection: WebSocketConnection
    /// Opens when the connection has closed, with how it closed.
    let ended = Gate<WebSocketCloseStatus>()
    private let onEvent: @Sendable (ScannedFrame) -> Void
    private let onUnmatchedReply: @Sendable (ScannedFrame) -> Void
    private let state = Mutex(State())

    /// `onEvent` gets every event frame (and unreadable ones), on the event loop; `onUnmatchedReply` a
    /// reply to no request in flight.
    init(
        _ connection: WebSocketConnection, onEvent: @escaping @Sendable (ScannedFrame) -> Void,
        onUnmatchedReply: @escaping @Sendable (ScannedFrame) -> Void
    ) {
        self.connection = connection
        self.onEvent = onEvent
        self.onUnmatchedReply = onUnmatchedReply
    }

    /// Sends `operation` and waits for its reply, at most `timeout`. Throws `LoadFailure.closed` when the
    /// connection ends first and `LoadFailure.timeout` past the timeout; an error reply is returned, not
    /// thrown (`Reply.frame` carries its code).
    func send(_ operation: ParlorWire.Operation, timeout: Duration) async throws -> Reply {
        let id = state.withLock { state -> Int64 in
            state.lastID += 1
            return state.lastID
        }
        let request = try Request(id: .number(id), operation: operation).encoded()
        let name = operation.name.rawValue
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Reply, any Error>) in
            let timer = connection.eventLoop.scheduleTask(in: TimeAmount(timeout)) { [self] in
                _ = resume(id, with: .failure(LoadFailure.timeout(name)))
            }
            let closed = state.withLock { state -> WebSocketCloseStatus? in
                if let closed = state.closed { return closed }
                state.pending[id] = Pending(continuation: continuation, timer: timer)
                return nil
            }
            if let closed {
                timer.cancel()
                continuation.resume(throwing: LoadFailure.closed(closed))
            } else {
                connection.send(WebSocketMessage(kind: .text, data: ByteBuffer(bytes: request)))
            }
        }
    }

    /// Starts the close handshake (how abrupt depends on the client configuration's close timeout).
    func close() {
        connection.close()
    }

    /// Ends request `id` with `result`; false when it is no longer in flight.
    @discardableResult
    private func resume(_ id: Int64, with result: Result<Reply, any Error>) -> Bool {
        guard let waiter = state.withLock({ $0.pending.removeValue(forKey: id) }) else { return false }
        waiter.timer.cancel()
        waiter.continuation.resume(with: result)
        return true
    }

    // MARK: WebSocketReceiver

    func received(_ message: WebSocketMessage) -> WebSocketReadDemand {
        let frame = ScannedFrame(message.data)
        if case .reply(let id, _, _) = frame {
            if !resume(id, with: .success(Reply(frame: frame, data: message.data))) { onUnmatchedReply(frame) }
        } else {
            onEvent(frame)
        }
        return .more
    }

    func receivedProtocolViolation() {
        // The server broke the protocol; the connection fails at once and `closed` follows.
    }

    func writabilityChanged(isWritable: Bool) {}
    func serverShuttingDown() {}

    func closed(_ status: WebSocketCloseStatus) {
        let waiters = state.withLock { state -> [Pending] in
            state.closed = status
            defer { state.pending = [:] }
            return Array(state.pending.values)
        }
        for waiter in waiters {
            waiter.timer.cancel()
            waiter.continuation.resume(throwing: LoadFailure.closed(status))
        }
        ended.open(status)
    }
}
