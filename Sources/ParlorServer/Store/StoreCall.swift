import Logging
import ParlorWire

extension Logger {
    /// Runs a store call for a request: a failure is logged with its cause and answered `INTERNAL`
    /// ("The server could not <operation>…"), so the client learns nothing of paths or SQL.
    func storing<T: Sendable>(_ operation: String, _ body: () async throws(StoreError) -> T) async throws(WireError) -> T {
        do {
            return try await body()
        } catch {
            self.error("Store failure", metadata: ["operation": "\(operation)", "cause": "\(error.reason)"])
            throw WireError.internalError("The server could not \(operation); nothing was changed. Try again.")
        }
    }
}
