import ParlorRules

/// `listGames {userId?, before?, limit?}`: finished games, newest first. `before` is an ISO-8601
/// timestamp (a finished game's `finishedAt`) to page backwards from.
public struct ListGamesArguments: OperationArguments, DefaultArguments {
    public var userId: UserID?
    public var before: String?
    public var limit: Int?

    public static let defaultLimit = 20
    public static let maxLimit = 100
    public static let limits = 1...maxLimit

    public init(userId: UserID? = nil, before: String? = nil, limit: Int? = nil) {
        self.userId = userId
        self.before = before
        self.limit = limit
    }

    public init() { self.init(userId: nil) }

    /// `limit`, `defaultLimit` when absent; `INVALID_INPUT` naming the range when outside 1…`maxLimit`
    /// (a page size is never changed silently: a client asking for 0 or 100,000 learns the bounds).
    public func checkedLimit() throws(WireError) -> Int {
        guard let limit else { return Self.defaultLimit }
        guard Self.limits.contains(limit) else { throw Self.limitError(got: "\(limit)") }
        return limit
    }

    /// The refusal of a `limit` that is out of range or not an integer.
    public static func limitError(got: String) -> WireError {
        WireError(.invalidInput, "limit must be an integer from \(limits.lowerBound) to \(limits.upperBound) (got \(got.prefix(20))).")
    }

    /// `before` as an instant; nil when absent or not an ISO-8601 timestamp.
    public var beforeInstant: Instant? { before.flatMap(Instant.init(iso8601:)) }
}
