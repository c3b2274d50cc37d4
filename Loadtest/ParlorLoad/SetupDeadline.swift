import NIOCore
import WebSocketCore

/// Runs a connection's set-up (requests awaited one by one) with a deadline. A server that accepted a
/// connection but never answers would otherwise hold it, and the pacing slot it took, forever; past the
/// deadline the connection is closed, the waiting call fails, and the failure says "timed out".
func withSetupDeadline<Result>(
    _ webSocket: WebSocket, _ timeout: Duration, phase: String, _ body: () async throws -> Result
) async throws -> Result {
    // Whoever opens it first wins: true, the set-up finished in time; false, the deadline passed. The
    // deadline is a timer on the connection's event loop, not a task sleeping beside the set-up.
    let outcome = Gate<Bool>()
    let connection = webSocket.connection
    let deadline = connection.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
        if outcome.open(false) { connection.close(code: .goingAway, reason: "set-up timed out") }
    }
    defer { deadline.cancel() }
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
