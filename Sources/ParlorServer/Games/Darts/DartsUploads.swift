import Logging
import ParlorRules
import ParlorWire

/// Matches played offline and uploaded afterwards (seed `darts-srs.md`: `POST /matches`,
/// `POST /match_throws`), filed beside the live matches that finished in the same players' history.
///
/// An upload is idempotent by its id; a conflicting one replaces the stored version only when its
/// `updated_at` is later (the seed's last-write-wins), and the answer says which version is stored.
/// Turns are replayed through the darts rules (`DartsMatch.replay`): a visit that cannot have been
/// thrown is refused with 422 naming it, and the statistics are the ones the server computes. Every
/// change is durable before it is answered.
struct DartsUploads: Sendable {
    let store: any ParlorStore
    let clock: any ParlorClock
    let logger: Logger

    /// Turns and matches are larger than REST's usual 64 KiB: a long match has thousands of visits.
    static let maxBodySize = 1024 * 1024
    /// Visits one match may have.
    static let maxTurns = 20_000
    /// How often an upload that raced another is decided again before giving up.
    static let attempts = 5

    enum Outcome: String {
        case created, updated, unchanged, ignored
    }

    var routes: [HTTPRoute] {
        [
            HTTPRoute(.POST, "/matches", maxBodySize: Self.maxBodySize) { request, user throws(WireError) in
                let upload = try request.body(MatchUpload.self)
                let (outcome, record) = try await self.upload(upload, by: HTTPRoutes.signedIn(user))
                let body = try EncodedJSON.encoding(MatchUploadResult(result: outcome.rawValue, match: record))
                return HTTPRoutes.json(outcome == .created ? .created : .ok, body)
            },
            HTTPRoute(.POST, "/match_throws", maxBodySize: Self.maxBodySize) { request, user throws(WireError) in
                let turns = try request.body([MatchThrow].self)
                let (outcome, record) = try await self.attach(turns, by: HTTPRoutes.signedIn(user))
                return HTTPRoutes.json(.ok, try EncodedJSON.encoding(MatchUploadResult(result: outcome.rawValue, match: record)))
            },
        ]
    }

    // MARK: Matches

    func upload(_ upload: MatchUpload, by user: UserID) async throws(WireError) -> (Outcome, MatchRecord) {
        let accounts = upload.players.compactMap(\.playerId)
        guard accounts.contains(user) else { throw WireError(.forbidden, "You can upload only a match you played in.") }
        try await checkFriends(of: user, among: accounts)
        let names = try await logger.storing("read the players' profiles") { () async throws(StoreError) in
            try await store.profiles(accounts)
        }
        let checked = try CheckedUpload(upload, names: Dictionary(names.map { ($0.user, $0.displayName) }, uniquingKeysWith: { a, _ in a }), now: clock.now)
        let replayed = try upload.turns.map { turns throws(WireError) in try replay(turns, of: checked, by: user) }
        for _ in 0..<Self.attempts {
            let existing = try await logger.storing("read uploaded match \(checked.id)") { () async throws(StoreError) in
                try await store.uploadedGame(DartsGame.kind, id: checked.id)
            }
            guard let existing else {
                let stored = StoredUpload(checked, turns: upload.turns, replayed: replayed)
                if try await save(stored, checked, replayed: replayed, by: user, replacing: nil) { return (.created, stored.record) }
                continue
            }
            let current = try read(existing)
            guard existing.players.contains(user) || existing.uploader == user else {
                throw WireError(.forbidden, "Match \(checked.id) was uploaded by players you are not one of; choose another id.")
            }
            let sameVersion = checked.updatedAt == existing.updatedAt && checked.upload == current.upload
            if sameVersion && (upload.turns == nil || upload.turns == current.turns) { return (.unchanged, current.record) }
            guard checked.updatedAt > existing.updatedAt || sameVersion else { return (.ignored, current.record) }
            let stored = StoredUpload(checked, turns: upload.turns, replayed: replayed)
            if try await save(stored, checked, replayed: replayed, by: user, replacing: existing.updatedAt) { return (.updated, stored.record) }
        }
        throw busy(checked.id)
    }

    // MARK: Turns

    /// `POST /match_throws`: the turns of a match already uploaded, checked against its stored version.
    func attach(_ turns: [MatchThrow], by user: UserID) async throws(WireError) -> (Outcome, MatchRecord) {
        guard let first = turns.first else { throw CheckedUpload.invalid("Send the turns of one match: the array is empty.") }
        guard let matchId = first.matchId.flatMap(UserID.init)?.rawValue,
            turns.allSatisfy({ $0.matchId.flatMap(UserID.init)?.rawValue == matchId })
        else {
            throw CheckedUpload.invalid("Every turn must carry the same match_id, the uploaded match's id.")
        }
        for _ in 0..<Self.attempts {
            let existing = try await logger.storing("read uploaded match \(matchId)") { () async throws(StoreError) in
                try await store.uploadedGame(DartsGame.kind, id: matchId)
            }
            guard let existing else {
                throw WireError(.matchNotFound, "No match \(matchId) has been uploaded; POST /matches first.")
            }
            guard existing.players.contains(user) else { throw WireError(.forbidden, "You can upload turns only of a match you played in.") }
            let current = try read(existing)
            if current.turns == turns { return (.unchanged, current.record) }
            let names = Dictionary(
                current.record.players.compactMap { player in player.playerId.map { ($0, player.name) } }, uniquingKeysWith: { a, _ in a })
            let checked = try CheckedUpload(current.upload, names: names, now: clock.now)
            let replayed = try replay(turns, of: checked, by: user)
            let stored = StoredUpload(checked, turns: turns, replayed: replayed)
            if try await save(stored, checked, replayed: replayed, by: existing.uploader, replacing: existing.updatedAt) {
                return (.updated, stored.record)
            }
        }
        throw busy(matchId)
    }

    /// The match `turns` make under `checked`'s settings and seats, or 422 naming the first bad turn.
    private func replay(_ turns: [MatchThrow], of checked: CheckedUpload, by scorer: UserID) throws(WireError) -> DartsMatch {
        guard turns.count <= Self.maxTurns else { throw CheckedUpload.invalid("A match has at most \(Self.maxTurns) turns.") }
        var visits: [ReplayVisit] = []
        for turn in turns {
            let seat: Int
            switch (turn.playerId, turn.order) {
            case (let player?, let order):
                guard let found = checked.seats.firstIndex(where: { $0.playerId == player }), order == nil || order == found else {
                    throw Self.badTurn(turn, "player_id \(player) is not the player at that order in this match.")
                }
                seat = found
            case (nil, let order?):
                guard checked.seats.indices.contains(order) else { throw Self.badTurn(turn, "no player sits at order \(order).") }
                seat = order
            case (nil, nil):
                throw Self.badTurn(turn, "name the thrower with player_id, or order for a guest.")
            }
            visits.append(ReplayVisit(
                leg: turn.leg, turn: turn.turn, seat: seat, visit: VisitInput(darts: turn.darts, total: turn.score),
                remaining: turn.remaining, isBust: turn.isBust))
        }
        // Guests need ids only for the replay; they are never shown or kept.
        let players = checked.seats.map { seat in
            DartsPlayer(id: seat.playerId ?? DartsGame.randomUUID(), name: seat.name, isGuest: seat.playerId == nil)
        }
        let match: DartsMatch
        do {
            match = try DartsMatch.replay(
                id: checked.id, settings: checked.settings, players: players, scorer: scorer, visits: visits,
                startedAt: checked.startedAt, finishedAt: checked.endedAt)
        } catch {
            throw WireError(.invalidThrows, error.message)
        }
        guard let winner = match.winner, checked.seats[winner].playerId == checked.winnerId else {
            let named = match.winner.map { checked.seats[$0].name } ?? "nobody"
            throw WireError(.invalidThrows, "The turns make \(named) the winner, but winner_id says otherwise.")
        }
        return match
    }

    // MARK: Plumbing

    /// Every other account player must be an accepted friend of the uploader: an upload files a match in
    /// their history and counts in their statistics.
    private func checkFriends(of user: UserID, among players: [UserID]) async throws(WireError) {
        let others = players.filter { $0 != user }
        guard !others.isEmpty else { return }
        let friendships = try await logger.storing("read the friends of \(user)") { () async throws(StoreError) in
            try await store.friendships(of: user)
        }
        let friends = Set(friendships.filter { $0.status == .accepted }.map { $0.other(than: user) })
        if let stranger = others.first(where: { !friends.contains($0) }) {
            throw WireError(.forbidden, "Player \(stranger) is not your friend; a match you upload may name only you, your friends and guests.")
        }
    }

    private func save(
        _ stored: StoredUpload, _ checked: CheckedUpload, replayed: DartsMatch?, by uploader: UserID, replacing: Instant?
    ) async throws(WireError) -> Bool {
        try await logger.storing("save uploaded match \(checked.id)") { () async throws(StoreError) in
            try await store.saveUploadedGame(
                UploadedGame(
                    kind: DartsGame.kind, id: checked.id, uploader: uploader, updatedAt: checked.updatedAt, finishedAt: checked.endedAt,
                    players: checked.accountPlayers, tallies: StoredUpload.tallies(checked, replayed: replayed), state: try stored.json()),
                replacing: replacing)
        }
    }

    private func read(_ game: UploadedGame) throws(WireError) -> StoredUpload {
        do {
            return try StoredUpload.read(game)
        } catch {
            logger.error("Store failure", metadata: ["operation": "read uploaded match \(game.id)", "cause": "\(error.reason)"])
            throw WireError.internalError("The server could not read match \(game.id).")
        }
    }

    private static func badTurn(_ turn: MatchThrow, _ reason: String) -> WireError {
        WireError(.invalidThrows, ReplayFailure(leg: turn.leg, turn: turn.turn, reason).message)
    }

    private func busy(_ id: String) -> WireError {
        WireError(.invalidState, "Match \(id) is being uploaded from elsewhere at the same time; upload it again.")
    }
}
