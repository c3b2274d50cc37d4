import ParlorWire

// Any declared operation, typed by its declaration: `client.call(Operation.recordVisit, arguments)`
// answers a `MatchView`. A game's new operation needs nothing in this library.

extension ParlorClient {
    /// Sends `operation` with `arguments` and answers its declared result (`NoResult` for `null`).
    public func call<Arguments, Result>(
        _ operation: OperationDeclaration<Arguments, Result>, _ arguments: Arguments
    ) async throws(ParlorClientError) -> Result {
        if let none = NoResult() as? Result {
            try await sendExpectingNoResult(operation(arguments))
            return none
        }
        return try await send(operation(arguments), as: Result.self)
    }
}
