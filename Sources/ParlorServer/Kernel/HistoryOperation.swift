import ParlorRules
import ParlorWire

/// `listHistory`: one page of the caller's finished games of every kind, newest first — each kind's
/// page read through its host, merged by finish. A kind whose games are not listed (its definition
/// makes no `PlayedGame`) adds nothing.
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
            var played: [PlayedGame] = []
            for game in games {
                played += try await game.playedGames(of: user, before: args.beforeInstant, limit: limit)
            }
            // ISO-8601 with milliseconds in UTC sorts as text.
            played.sort { $0.finishedAt > $1.finishedAt }
            let page = Array(played.prefix(limit))
            let nextBefore = page.count == limit ? page.last?.finishedAt : nil
            return .reply(try EncodedJSON.encoding(ListHistoryResult(games: page, nextBefore: nextBefore)))
        }
    }
}
