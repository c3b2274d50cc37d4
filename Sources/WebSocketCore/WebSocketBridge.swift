import NIOConcurrencyHelpers
import NIOCore

/// The receiver behind ``WebSocket``: queues what the connection's event loop delivers for the task
/// that iterates ``WebSocket/inbound``, and reports writability to tasks waiting in `send`.
///
/// Deliberately small: an idle connection is a suspended task waiting in `next()`, and a Swift task
/// keeps the stack of the deepest call it made, so one continuation and a short queue here is what an
/// idle connection costs. Backpressure both ways: past `highWatermark` queued messages the connection
/// stops reading from the peer until the consumer catches up, and `send` waits while the channel is
/// over its outbound high-water mark.
///
/// A protocol violation waits for the consumer: the messages before it are handed out, and only when
/// the consumer comes back for more — having answered them — does the connection fail.
final class WebSocketBridge: WebSocketReceiver, @unchecked Sendable {
    // @unchecked: every mutable field is read and written only under `lock`.
    private let lock = NIOLock()
    private var messages = CircularBuffer<WebSocketMessage>(initialCapacity: 2)
    /// The connection is closed.
    private var finished = false
    /// No more messages will come (closed, or the peer broke the protocol and the consumer has
    /// answered everything before it).
    private var inputEnded = false
    /// The peer broke the protocol; the connection fails once the consumer has caught up.
    private var violationPending = false
    /// A message was handed out and its consumer has not asked for the next one yet.
    private var consumerBusy = false
    private var consumer: CheckedContinuation<WebSocketMessage?, Never>?
    private var writable = true
    private var writabilityWaiters: [CheckedContinuation<Void, Never>] = []
    /// We asked the connection to stop reading because the queue was full.
    private var readPaused = false
    private let highWatermark: Int
    private let lowWatermark: Int
    /// The connection, once attached; let go when it closes.
    private var connection: WebSocketConnection?

    /// A bridge with `configuration`'s inbound water marks.
    convenience init(configuration: WebSocketConfiguration) {
        self.init(highWatermark: configuration.inboundHighWaterMark, lowWatermark: configuration.inboundLowWaterMark)
    }

    init(highWatermark: Int, lowWatermark: Int) {
        self.highWatermark = max(1, highWatermark)
        self.lowWatermark = max(0, min(lowWatermark, highWatermark - 1))
    }

    /// Connects the bridge to the connection it receives for (to resume reads and proceed with failures).
    func attach(_ connection: WebSocketConnection) {
        lock.withLock { self.connection = connection }
    }

    // MARK: Receiver (the event loop side)

    func received(_ message: WebSocketMessage) -> WebSocketReadDemand {
        let (waiting, demand): (CheckedContinuation<WebSocketMessage?, Never>?, WebSocketReadDemand) = lock.withLock {
            guard !inputEnded else { return (nil, .more) }
            if let consumer {
                self.consumer = nil
                consumerBusy = true
                return (consumer, .more)
            }
            messages.append(message)
            guard messages.count >= highWatermark else { return (nil, .more) }
            readPaused = true
            return (nil, .pause)
        }
        waiting?.resume(returning: message)
        return demand
    }

    func receivedProtocolViolation() {
        let (proceed, waiting): (WebSocketConnection?, CheckedContinuation<WebSocketMessage?, Never>?) = lock.withLock {
            guard !inputEnded else { return (nil, nil) }
            guard messages.isEmpty && !consumerBusy else {
                violationPending = true
                return (nil, nil)
            }
            inputEnded = true
            let waiting = consumer
            consumer = nil
            return (connection, waiting)
        }
        proceed?.proceedWithFailure()
        waiting?.resume(returning: nil)
    }

    func writabilityChanged(isWritable: Bool) {
        let writers: [CheckedContinuation<Void, Never>] = lock.withLock {
            writable = isWritable
            guard isWritable else { return [] }
            let writers = writabilityWaiters
            writabilityWaiters = []
            return writers
        }
        for writer in writers { writer.resume() }
    }

    func serverShuttingDown() {
        // The task sees it through `WebSocket.shutdown`.
    }

    /// The connection is over: the consumer gets what is queued, then the end.
    func closed(_ status: WebSocketCloseStatus) {
        let (waiting, writers): (CheckedContinuation<WebSocketMessage?, Never>?, [CheckedContinuation<Void, Never>]) = lock.withLock {
            finished = true
            connection = nil
            let waiting = messages.isEmpty ? consumer : nil
            if waiting != nil { consumer = nil }
            let writers = writabilityWaiters
            writabilityWaiters = []
            writable = true
            return (waiting, writers)
        }
        waiting?.resume(returning: nil)
        for writer in writers { writer.resume() }
    }

    // MARK: Consumer side

    /// What the consumer gets next: a queued message, the end, or nothing yet (nil: wait).
    private enum Next {
        case message(WebSocketMessage)
        case end

        var message: WebSocketMessage? {
            switch self {
            case .message(let message): message
            case .end: nil
            }
        }
    }

    /// Under the lock: the consumer is back for more, so what it was given has been answered.
    private func takeNext() -> (next: Next?, resumeReading: WebSocketConnection?, proceed: WebSocketConnection?) {
        consumerBusy = false
        if let message = messages.popFirst() {
            consumerBusy = true
            guard readPaused, messages.count <= lowWatermark else { return (.message(message), nil, nil) }
            readPaused = false
            return (.message(message), connection, nil)
        }
        if violationPending {
            violationPending = false
            inputEnded = true
            return (.end, nil, connection)
        }
        if finished || inputEnded || Task.isCancelled { return (.end, nil, nil) }
        return (nil, nil, nil)
    }

    /// The next message, or nil once the connection has ended (or the waiting task is cancelled).
    func next() async -> WebSocketMessage? {
        let (ready, resume, proceed) = lock.withLock { takeNext() }
        resume?.resumeReading()
        proceed?.proceedWithFailure()
        if let ready { return ready.message }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<WebSocketMessage?, Never>) in
                let (immediate, resume, proceed): (Next?, WebSocketConnection?, WebSocketConnection?) = lock.withLock {
                    let taken = takeNext()
                    if taken.next == nil { consumer = continuation }
                    return taken
                }
                resume?.resumeReading()
                proceed?.proceedWithFailure()
                if let immediate { continuation.resume(returning: immediate.message) }
            }
        } onCancel: {
            let waiting = lock.withLock { () -> CheckedContinuation<WebSocketMessage?, Never>? in
                defer { consumer = nil }
                return consumer
            }
            waiting?.resume(returning: nil)
        }
    }

    /// Returns when the channel can take more writes (or the connection has ended).
    func waitUntilWritable() async {
        if lock.withLock({ writable || finished }) { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = lock.withLock { () -> Bool in
                if writable || finished { return true }
                writabilityWaiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    var isFinished: Bool { lock.withLock { finished } }

    /// Stops receiving: returns the messages not yet taken and whether a violation was waiting behind
    /// them, and ends the inbound sequence (a consumer waiting gets nil). For a hand-over to another
    /// receiver, on the event loop.
    func detach() -> (messages: [WebSocketMessage], violation: Bool) {
        let (queued, violation, waiting): ([WebSocketMessage], Bool, CheckedContinuation<WebSocketMessage?, Never>?) = lock.withLock {
            let queued = Array(messages)
            messages.removeAll()
            let violation = violationPending
            violationPending = false
            inputEnded = true
            readPaused = false
            let waiting = consumer
            consumer = nil
            return (queued, violation, waiting)
        }
        waiting?.resume(returning: nil)
        return (queued, violation)
    }

    /// The oldest queued message, without waiting (tests drive the handler synchronously).
    func takeQueued() -> WebSocketMessage? {
        lock.withLock { messages.popFirst() }
    }
}
