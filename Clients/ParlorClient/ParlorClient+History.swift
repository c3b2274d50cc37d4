import ParlorWire

extension ParlorClient {
    /// One page of your finished games of every kind, newest first; pass the page's `nextBefore` as
    /// `before` for the next one.
    public func listHistory(before: String? = nil, limit: Int? = nil) async throws(ParlorClientError) -> ListHistoryResult {
        try await call(Operation.listHistory, ListGamesArguments(before: before, limit: limit))
    }
}
