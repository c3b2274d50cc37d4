import WebSocketCore

/// Runs a connection's set-up (requests awaited one by one) with a deadline. A server that accepted a
/// connection but never answers would otherwise hold it, and the pacing slot it took, forever; past the
/// deadline the connection is closed, the waiting call fails, and the failure says "timed out".
func withSetupDeadline<Result>(
    _ webSocket: WebSocket, _ timeout: Duration, phase: String, _ body: () async throws -> Result
) async throws -> Result {
    // Whoever opens it first wins: true, the set-up finished in time; false, the deadline passed.
    let outcome = Gate<Bool>()
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            try await Task.sleep(for: timeout)
            if outcome.open(false) { await webSocket.close(code: .goingAway, reason: "set-up timed out") }
        }
        defer { group.cancelAll() }
        do {
            let result = try await body()
            if outcome.open(true) { return result }
            throw LoadFailure.timeout(phase)
        } catch {
            if outcome.value == false { throw LoadFailure.timeout(phase) }
            outcome.open(true)
            throw error
        }
    }
}
