import ParlorRules

/// `listGames {userId?, before?, limit?}`: finished games, newest first. `before` is an ISO-8601
/// timestamp (a finished game's `finishedAt`) to page backwards from.
public struct ListGamesArguments: OperationArguments, DefaultArguments {
    public var userId: UserID?
    public var before: String?
    public var limit: Int?
    /// `listHistory` only: a page's `nextCursor`, for the page after it (`HistoryCursor`). The kinds'
    /// own lists refuse it.
    public var cursor: String?

    public static let defaultLimit = 20
    public static let maxLimit = 100
    public static let limits = 1...maxLimit

    public init(userId: UserID? = nil, before: String? = nil, limit: Int? = nil, cursor: String? = nil) {
        self.userId = userId
        self.before = before
        self.limit = limit
        self.cursor = cursor
    }

    /// For the kinds' own lists, which page by `before` alone: a `cursor` is refused rather than ignored.
    public func checkNoCursor() throws(WireError) {
        guard cursor == nil else { throw WireError(.invalidInput, "cursor pages listHistory only; page this list with before.") }
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

/// Where a page of `listHistory` ended: the last game shown, by its finish, kind and code (a finished
/// game of one kind is named by its code at its finish: a code is held by one live game at a time).
/// Pages are ordered by finish (newest first), then kind, then code.
public struct HistoryCursor: Sendable, Equatable {
    public var finishedAt: String
    public var kind: String
    public var code: String

    public init(finishedAt: String, kind: String, code: String) {
        self.finishedAt = finishedAt
        self.kind = kind
        self.code = code
    }

    public init(after game: PlayedGame) {
        self.init(finishedAt: game.finishedAt, kind: game.kind, code: game.code)
    }

    /// Reads a page's `nextCursor`; `INVALID_INPUT` when it is not one.
    public init(parsing text: String) throws(WireError) {
        let parts = text.split(separator: "~", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, Instant(iso8601: parts[0]) != nil, !parts[1].isEmpty else {
            throw WireError(.invalidInput, "cursor must be a page's nextCursor (got \(text.prefix(40))).")
        }
        self.init(finishedAt: parts[0], kind: parts[1], code: parts[2])
    }

    /// The text a page gives as `nextCursor`.
    public var text: String { "\(finishedAt)~\(kind)~\(code)" }

    /// Whether `game` comes after this cursor in a page's order.
    public func precedes(_ game: PlayedGame) -> Bool {
        if game.finishedAt != finishedAt { return game.finishedAt < finishedAt }
        return (game.kind, game.code) > (kind, code)
    }

    /// The page order: newest first, then by kind and code.
    public static func inPageOrder(_ a: PlayedGame, _ b: PlayedGame) -> Bool {
        if a.finishedAt != b.finishedAt { return a.finishedAt > b.finishedAt }
        return (a.kind, a.code) < (b.kind, b.code)
    }
}
