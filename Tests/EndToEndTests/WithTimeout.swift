import Synchronization

/// `body`'s value, or a failure naming `what` if it takes longer than `timeout`. At the deadline the
/// body is cancelled and the failure thrown at once, whether or not the body heeds the cancellation:
/// a task group would wait for it, and a body awaiting something that ignores cancellation (another
/// task's value, a future) would then hold the test — and the whole run — for good.
func withTimeout<R: Sendable>(_ timeout: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> R) async throws -> R {
    let pending = Mutex<CheckedContinuation<R, any Error>?>(nil)
    let tasks = Mutex<[Task<Void, Never>]>([])
    let finish: @Sendable (Result<R, any Error>) -> Void = { result in
        pending.withLock { continuation in
            continuation?.resume(with: result)
            continuation = nil
        }
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<R, any Error>) in
            pending.withLock { $0 = continuation }
            let work = Task {
                do { finish(.success(try await body())) } catch { finish(.failure(error)) }
            }
            let alarm = Task {
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                finish(.failure(ProcessTestError("timed out after \(timeout) waiting for \(what)")))
            }
            tasks.withLock { $0 = [work, alarm] }
        }
    } onCancel: {
        finish(.failure(CancellationError()))
    }
}
