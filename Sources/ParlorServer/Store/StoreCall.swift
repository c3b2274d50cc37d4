import Logging
import ParlorWire

extension Logger {
    /// Runs a store call for a request: a failure is logged with its cause and answered `INTERNAL`
    /// ("The server could not <operation>…"; `UNAVAILABLE` when the database cannot be reached), so the
    /// client learns nothing of paths or SQL.
    func storing<T: Sendable>(_ operation: String, _ body: () async throws(StoreError) -> T) async throws(WireError) -> T {
        do {
            return try await body()
        } catch {
            self.error("Store failure", metadata: ["operation": "\(operation)", "cause": "\(error.reason)"])
            throw error.wireError(fallback: "The server could not \(operation); nothing was changed. Try again.")
        }
    }
}

extension StoreError {
    /// What the client is told: `UNAVAILABLE` while the database cannot be reached (try again shortly),
    /// else `INTERNAL` with `fallback`. Never the cause: that is the operator's, in the log.
    func wireError(fallback: String) -> WireError {
        kind == .unreachable
            ? WireError(.unavailable, "The database cannot be reached right now; nothing was changed. Try again in a moment.")
            : WireError.internalError(fallback)
    }
}
