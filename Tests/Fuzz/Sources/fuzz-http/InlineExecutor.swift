/// A task executor that runs jobs only when told to, on the thread that tells it.
///
/// The server hands each connection's events (requests to answer, the upgrade) to an async consumer.
/// Here that consumer is a task preferring this executor, and the fuzzing thread runs its jobs between
/// writes to the `EmbeddedChannel`, so one thread does everything, as `EmbeddedChannel` requires, and
/// every input runs the same way.
final class InlineExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: jobs are enqueued and run only on the fuzzing thread.
    private var jobs: [UnownedJob] = []

    func enqueue(_ job: consuming ExecutorJob) {
        jobs.append(UnownedJob(job))
    }

    /// Runs jobs until none is left.
    func drain() {
        while !jobs.isEmpty {
            jobs.removeFirst().runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
