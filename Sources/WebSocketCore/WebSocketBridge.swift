import NIOConcurrencyHelpers
import NIOCore

/// Carries messages and writability between a connection's channel handler (on its event loop) and the
/// task that owns the ``WebSocket``.
///
/// Deliberately small: an idle connection is a suspended task waiting in `next()`, and a Swift task
/// keeps the stack of the deepest call it made, so one continuation and a short queue here is what an
/// idle connection costs. Backpressure both ways: past `highWatermark` queued messages the handler
/// stops reading from the peer until the consumer catches up, and `send` waits while the channel is
/// over its outbound high-water mark.
final class WebSocketBridge: @unchecked Sendable {
    // @unchecked: every mutable field is read and written only under `lock`.
    private let lock = NIOLock()
    private var messages = CircularBuffer<WebSocketMessage>(initialCapacity: 2)
    private var finished = false
    private var consumer: CheckedContinuation<WebSocketMessage?, Never>?
    private var writable = true
    private var writabilityWaiters: [CheckedContinuation<Void, Never>] = []
    /// The handler held back a read because the queue was full.
    private var readPaused = false
    private let highWatermark: Int
    private let lowWatermark: Int
    /// Asks the channel for more data once the consumer has caught up; thread-safe (`Channel.read`).
    private let requestRead: @Sendable () -> Void

    /// The bridge for an upgraded `channel`: its watermarks from `configuration`, reads asked of the channel.
    convenience init(channel: any Channel, configuration: WebSocketConfiguration) {
        self.init(
            highWatermark: configuration.inboundHighWaterMark, lowWatermark: configuration.inboundLowWaterMark,
            requestRead: { channel.read() })
    }

    init(highWatermark: Int, lowWatermark: Int, requestRead: @escaping @Sendable () -> Void) {
        self.highWatermark = max(1, highWatermark)
        self.lowWatermark = max(0, min(lowWatermark, highWatermark - 1))
        self.requestRead = requestRead
    }

    // MARK: Event loop side

    /// A message from the peer.
    func deliver(_ message: WebSocketMessage) {
        let waiting: CheckedContinuation<WebSocketMessage?, Never>? = lock.withLock {
            guard !finished else { return nil }
            if let consumer {
                self.consumer = nil
                return consumer
            }
            messages.append(message)
            return nil
        }
        waiting?.resume(returning: message)
    }

    /// Whether reading from the peer should wait for the consumer; records that a read is owed.
    func shouldHoldRead() -> Bool {
        lock.withLock {
            guard messages.count >= highWatermark else { return false }
            readPaused = true
            return true
        }
    }

    /// The connection is over: the consumer gets what is queued, then the end.
    func finish() {
        let (waiting, writers): (CheckedContinuation<WebSocketMessage?, Never>?, [CheckedContinuation<Void, Never>]) = lock.withLock {
            finished = true
            let waiting = consumer
            consumer = nil
            let writers = writabilityWaiters
            writabilityWaiters = []
            writable = true
            return (waiting, writers)
        }
        waiting?.resume(returning: nil)
        for writer in writers { writer.resume() }
    }

    func writabilityChanged(to isWritable: Bool) {
        let writers: [CheckedContinuation<Void, Never>] = lock.withLock {
            writable = isWritable
            guard isWritable else { return [] }
            let writers = writabilityWaiters
            writabilityWaiters = []
            return writers
        }
        for writer in writers { writer.resume() }
    }

    // MARK: Consumer side

    /// The next message, or nil once the connection has ended (or the waiting task is cancelled).
    func next() async -> WebSocketMessage? {
        let (ready, resumeReading): (WebSocketMessage??, Bool) = lock.withLock {
            if let message = messages.popFirst() { return (.some(message), takeOwedRead()) }
            if finished || Task.isCancelled { return (.some(nil), false) }
            return (nil, false)
        }
        if resumeReading { requestRead() }
        if let ready { return ready }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<WebSocketMessage?, Never>) in
                let (immediate, resumeReading): (WebSocketMessage??, Bool) = lock.withLock {
                    if let message = messages.popFirst() { return (.some(message), takeOwedRead()) }
                    if finished || Task.isCancelled { return (.some(nil), false) }
                    consumer = continuation
                    return (nil, false)
                }
                if resumeReading { requestRead() }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiting = lock.withLock { () -> CheckedContinuation<WebSocketMessage?, Never>? in
                defer { consumer = nil }
                return consumer
            }
            waiting?.resume(returning: nil)
        }
    }

    /// Called under the lock after taking a message: whether a held-back read should now be issued.
    private func takeOwedRead() -> Bool {
        guard readPaused, messages.count <= lowWatermark else { return false }
        readPaused = false
        return true
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

    /// The oldest queued message, without waiting (tests drive the handler synchronously).
    func takeQueued() -> WebSocketMessage? {
        lock.withLock { messages.popFirst() }
    }
}
