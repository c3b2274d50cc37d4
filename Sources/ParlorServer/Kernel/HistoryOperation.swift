import ParlorRules
import ParlorWire

/// `listHistory`: one page of the caller's finished games of every kind, newest first — each kind's
/// page read through its host, merged by finish. A kind whose games are not listed (its definition
/// makes no `PlayedGame`) adds nothing.
///
/// Pages follow a cursor (`HistoryCursor`: the last game shown, by finish, kind and code), so two games
/// that finished in the same millisecond on either side of a page's end are both listed: each kind is
/// read up to and including the cursor's millisecond and what the cursor already passed is dropped.
/// `before` (a strict cutoff on the finish) still works for older clients.
enum HistoryOperation {
    static func handler(_ games: [any HostedGame]) -> OperationHandler<ListGamesArguments> {
        OperationHandler(Operation.listHistory) { args, context throws(WireError) in
            let caller = try context.signedIn()
            let user = args.userId ?? caller
            guard user == caller else { throw WireError(.forbidden, "You can list only your own games.") }
            if args.before != nil && args.beforeInstant == nil {
                throw WireError(.invalidInput, "before must be an ISO-8601 timestamp such as 2026-01-30T18:00:00.000Z.")
            }
            let limit = try args.checkedLimit()
            let cursor = try args.cursor.map { text throws(WireError) in try HistoryCursor(parsing: text) }
            let page = try await Self.page(of: games, for: user, cursor: cursor, before: args.beforeInstant, limit: limit)
            let full = page.count == limit
            return .reply(try EncodedJSON.encoding(ListHistoryResult(
                games: page, nextBefore: full ? page.last?.finishedAt : nil,
                nextCursor: full ? page.last.map { HistoryCursor(after: $0).text } : nil)))
        }
    }

    /// The page: every kind read up to the cursor's millisecond (inclusive: games that share it are
    /// there) or strictly before `before`, what the cursor already passed dropped, merged in page order.
    /// A kind whose read was cut off at or after the page's last finish may hide a game that belongs
    /// before the page's end (in page order, games of one millisecond go by kind and code, not as the
    /// store lists them): it is read again with room for more.
    private static func page(
        of games: [any HostedGame], for user: UserID, cursor: HistoryCursor?, before: Instant?, limit: Int
    ) async throws(WireError) -> [PlayedGame] {
        let bound = cursor.flatMap { Instant(iso8601: $0.finishedAt) }.map { $0.adding(milliseconds: 1) } ?? before
        var asked = Array(repeating: limit + 8, count: games.count)
        while true {
            var reads: [[PlayedGame]] = []
            for (index, game) in games.enumerated() {
                reads.append(try await game.playedGames(of: user, before: bound, limit: asked[index]))
            }
            var merged = reads.joined().filter { game in cursor.map { $0.precedes(game) } ?? true }
            merged.sort(by: HistoryCursor.inPageOrder)
            let page = Array(merged.prefix(limit))
            guard page.count == limit, let last = page.last else { return page }
            var again = false
            for index in games.indices where reads[index].count >= asked[index] && asked[index] < maxRead {
                // Newest first: a cut-off read whose oldest is not older than the page's last may hide more.
                if let oldest = reads[index].last, oldest.finishedAt >= last.finishedAt {
                    asked[index] *= 2
                    again = true
                }
            }
            if !again { return page }
        }
    }

    /// The most one kind is read for one page (a flood of games finished in one millisecond past it
    /// may be paged out of order).
    static let maxRead = ListGamesArguments.maxLimit * 8
}
