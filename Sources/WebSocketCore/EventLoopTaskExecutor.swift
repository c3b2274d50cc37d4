import NIOCore

/// Runs Swift tasks on a NIO event loop.
///
/// A connection's tasks (its handler, the tasks that forward its subscriptions) prefer the connection's
/// own event loop: a write they make then goes straight into the channel instead of being handed from a
/// cooperative-pool thread to the event loop, and a message the loop receives resumes them without
/// crossing threads. Work they await elsewhere (actors) still runs where it belongs.
final class EventLoopTaskExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: holds only the event loop, which is itself thread-safe.
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
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
        try await withTaskExecutorPreference(EventLoopTaskExecutor(channel.eventLoop)) {
            try await body()
        }
    }
}
