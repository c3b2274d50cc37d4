import NIOConcurrencyHelpers
import NIOCore

/// Runs Swift tasks on a NIO event loop.
///
/// A connection's tasks prefer the connection's own event loop: a write they make then goes straight
/// into the channel instead of being handed from a cooperative-pool thread to the event loop, and a
/// message the loop receives resumes them without crossing threads. Work they await elsewhere (actors)
/// still runs where it belongs.
public final class EventLoopTaskExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: holds only the event loop, which is itself thread-safe.
    public let eventLoop: any EventLoop

    private static let shared = NIOLockedValueBox<[ObjectIdentifier: EventLoopTaskExecutor]>([:])

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// The executor of `eventLoop`, made once per loop and shared by every task that prefers it.
    public static func `for`(_ eventLoop: any EventLoop) -> EventLoopTaskExecutor {
        shared.withLockedValue { executors in
            let key = ObjectIdentifier(eventLoop)
            if let executor = executors[key] { return executor }
            let executor = EventLoopTaskExecutor(eventLoop)
            executors[key] = executor
            return executor
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}

extension WebSocket {
    /// Runs `body` preferring `channel`'s event loop as the executor of this task and its children.
    static func onEventLoop<Result>(
        of channel: any Channel, _ body: () async throws -> Result
    ) async rethrows -> Result {
        try await withTaskExecutorPreference(EventLoopTaskExecutor.for(channel.eventLoop)) {
            try await body()
        }
    }
}
