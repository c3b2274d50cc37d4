import ParlorWire

extension ParlorClient {
    /// One page of your finished games of every kind, newest first; pass the page's `nextCursor` as
    /// `cursor` for the next one (or, as older servers take it, its `nextBefore` as `before`).
    public func listHistory(
        cursor: String? = nil, before: String? = nil, limit: Int? = nil
    ) async throws(ParlorClientError) -> ListHistoryResult {
        try await call(Operation.listHistory, ListGamesArguments(before: before, limit: limit, cursor: cursor))
    }
}
