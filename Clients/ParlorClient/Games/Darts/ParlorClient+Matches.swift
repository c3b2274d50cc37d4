import ParlorRules
import ParlorWire

// The darts match operations (issue 14, seed `darts-srs.md`), typed.

extension ParlorClient {
    /// Creates a match with the caller as host in the first seat.
    public func createMatch(_ arguments: CreateMatchArguments) async throws(ParlorClientError) -> MatchSeatResult {
        try await call(Operation.createMatch, arguments)
    }

    /// Takes a seat (or returns the one the caller already has).
    public func joinMatch(code: String, playerName: String) async throws(ParlorClientError) -> MatchSeatResult {
        try await call(Operation.joinMatch, JoinMatchArguments(code: code, playerName: playerName))
    }

    /// Adds a guest the host scores for (host only); the guest's id is in the view.
    public func addGuest(code: String, name: String) async throws(ParlorClientError) -> MatchView {
        try await call(Operation.addGuest, AddGuestArguments(code: code, name: name))
    }

    /// Removes a player before the start (host only).
    public func removePlayer(code: String, playerId: UserID) async throws(ParlorClientError) -> MatchView {
        try await call(Operation.removePlayer, RemovePlayerArguments(code: code, playerId: playerId))
    }

    /// Starts the match (host only).
    public func startMatch(code: String) async throws(ParlorClientError) -> MatchView {
        try await call(Operation.startMatch, MatchCodeArguments(code: code))
    }

    /// Starts the next match of a finished one (the host): the same settings and players, the order
    /// turned by one. Answers its code; the old match's stream names it too (`MatchView.rematch`).
    public func rematchMatch(code: String) async throws(ParlorClientError) -> String {
        try await call(Operation.rematchMatch, MatchCodeArguments(code: code)).code
    }

    public func leaveMatch(code: String) async throws(ParlorClientError) {
        _ = try await call(Operation.leaveMatch, MatchCodeArguments(code: code))
    }

    /// Records a visit for the player to throw: its darts in notation, or its total.
    public func recordVisit(
        code: String, playerId: UserID, darts: [String]? = nil, total: Int? = nil
    ) async throws(ParlorClientError) -> MatchView {
        try await call(Operation.recordVisit, RecordVisitArguments(code: code, playerId: playerId, darts: darts, total: total))
    }

    /// Replaces the last visit; `visit` (its number) guards against replacing a newer one.
    public func editLastVisit(
        code: String, visit: Int? = nil, darts: [String]? = nil, total: Int? = nil
    ) async throws(ParlorClientError) -> MatchView {
        try await call(Operation.editLastVisit, EditLastVisitArguments(code: code, visit: visit, darts: darts, total: total))
    }

    public func getMatch(code: String) async throws(ParlorClientError) -> MatchView {
        try await call(Operation.getMatch, MatchCodeArguments(code: code))
    }

    /// The finish to suggest for `score` with `darts` left, or nil when there is none.
    public func checkout(score: Int, darts: Int, outRule: String? = nil) async throws(ParlorClientError) -> [String]? {
        let result = try await call(Operation.checkout, CheckoutArguments(score: score, darts: darts, outRule: outRule))
        return result.darts
    }

    /// Finished matches, newest first, in the seed's `matches` shape.
    public func listMatches(_ arguments: ListGamesArguments = ListGamesArguments()) async throws(ParlorClientError) -> ListMatchesResult {
        try await call(Operation.listMatches, arguments)
    }

    /// The match's every change, from its current state on: a `MatchView` per version, `nil` when the
    /// match is deleted (the stream then ends). Survives reconnects like ``observeRoom(code:)``.
    public func observeMatch(code: String) async throws(ParlorClientError) -> AsyncStream<MatchView?> {
        try await follow(.match, key: code)
    }
}

extension GameStream where Update == MatchView? {
    /// A darts match's stream: the `match` event, null when the match is deleted.
    public static let match = GameStream(
        "match", observe: Operation.observeMatch, arguments: { MatchCodeArguments(code: $0) }, event: .match,
        gone: [.matchNotFound, .invalidInput, .notFound])
}

extension MatchView: VersionedView {}
