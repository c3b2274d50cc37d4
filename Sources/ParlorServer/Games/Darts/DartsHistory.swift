import ParlorRules
import ParlorWire

/// A player's finished matches — live ones the kernel filed and uploaded ones — as one history, newest
/// first, in the seed's `matches` shape (`listMatches`, `GET /matches?user_id=`, `GET /users/{id}/matches`).
extension DartsOperations {
    /// A page of the caller's matches: each source gives at most a page finished before `before`, and
    /// the newest `limit` of both are the page (so none is skipped between pages).
    func history(_ args: ListGamesArguments, caller: UserID) async throws(WireError) -> ListMatchesResult {
        let page = try await host.historyPage(args, caller: caller, plural: "matches")
        let limit = try args.checkedLimit()
        let uploaded = try await host.logger.storing("list the uploaded matches of \(caller)") { () async throws(StoreError) in
            try await host.store.uploadedGames(DartsGame.kind, of: caller, before: args.beforeInstant, limit: limit)
        }
        var entries = page.games.compactMap { match in
            MatchRecord(match).map { (finishedAt: match.finishedAt ?? match.createdAt, record: $0) }
        }
        for game in uploaded {
            do {
                entries.append((game.finishedAt, try StoredUpload.read(game).record))
            } catch {
                host.logger.error("Store failure", metadata: ["operation": "read uploaded match \(game.id)", "cause": "\(error.reason)"])
                throw WireError.internalError("The server could not read match \(game.id).")
            }
        }
        let newest = entries.sorted { ($0.finishedAt, $0.record.id) > ($1.finishedAt, $1.record.id) }.prefix(limit).map(\.record)
        return ListMatchesResult(matches: newest, nextBefore: newest.count == limit ? newest.last?.endedAt : nil)
    }
}
