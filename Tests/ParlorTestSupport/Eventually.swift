import Testing

/// Polls `condition` until it holds, for state that changes on another task (a writer thread, an actor's
/// queue, a timer, a reconnecting client) with no event to await. Records an issue at the caller's line
/// and returns false if it still does not hold after `timeout`; the generous default only costs time
/// when a test is failing anyway, and keeps a loaded machine from failing a passing one.
@discardableResult
public func eventually(
    timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline, !Task.isCancelled else {
            let why = Task.isCancelled ? "the test was cancelled" : "\(timeout) passed"
            Issue.record("condition still false when \(why)", sourceLocation: sourceLocation)
            return false
        }
        // A failed sleep means cancellation, which the next turn reports.
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}
