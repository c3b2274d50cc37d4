/// A word lobby on the game kernel: one reducer over `WordLobbyAction`, built from the lobby's
/// operations (`join`, `leave`, `startGame`, `submitWord`, `endRound`). Starting a round schedules its
/// end; the round end is that scheduled action firing, on the server's clock.
extension WordLobby: GameRules {
    public typealias Action = WordLobbyAction
    public typealias Failure = LobbyError
    public typealias Reply = WordVerdict
    public typealias Event = LobbyEvent
    public typealias Environment = WordLobbyEnvironment

    /// The key of the running round's timer.
    public static let roundEndSchedule = "round-end"

    public var members: [UserID] { players.map(\.userId) }

    /// A lobby counts against its creator (or their heir) until its match is over.
    public var owner: UserID? { status == .finished ? nil : creator }

    /// Nobody plays a finished match.
    public var playing: [UserID] { status == .finished ? [] : members }

    /// Only between rounds or once finished: a running round ends by itself, and then the lobby is
    /// open (or finished) again.
    public var mayExpire: Bool { status != .game }

    /// What a finished match adds to each player's totals: their points, and whether they won.
    public var tallies: [UserID: PlayerTally] {
        let winners = Set(winners)
        return Dictionary(
            players.map { ($0.userId, ["points": $0.score, "won": winners.contains($0.userId) ? 1 : 0]) },
            uniquingKeysWith: { first, _ in first })
    }

    /// Waiting until its first round starts; then playing, between rounds too: a lobby never finishes.
    public var stage: GameStage { status == .game || roundsStarted > 0 ? .playing : .waiting }

    /// During a round the stream carries the member's own words: members only.
    public func checkObserver(_ user: UserID?) throws(LobbyError) {
        guard let user else { throw .unauthenticated }
        guard isMember(user) else { throw .permissionDenied(.notMember) }
    }

    public mutating func apply(
        _ action: WordLobbyAction, by caller: Caller, at now: Instant, in environment: WordLobbyEnvironment
    ) throws(LobbyError) -> GameOutcome<WordLobby> {
        if case .endRound(let number) = action {
            let events = endRound(number, at: now)
            guard events.contains(.matchFinished), let finishedAt else { return GameOutcome(events: events) }
            // Filed under its id: codes are reused, ids never.
            let archive = GameArchive(key: lobbyId, players: members, finishedAt: finishedAt, tallies: tallies)
            return GameOutcome(events: events, effects: [.archive(archive)])
        }
        guard let user = caller.user else { throw .unauthenticated }
        switch action {
        case .join(let profile):
            return GameOutcome(events: try join(user, profile: profile))
        case .leave:
            let events = try leave(user)
            // The leaver's streams end; when nobody is left, the lobby goes (and its streams with it).
            return GameOutcome(events: events, effects: events.contains(.lobbyDeleted) ? [.delete] : [.revokeView(user)])
        case .startGame(let gameId):
            let catalog = environment.catalog
            let choice: GameChoice = gameId.map { .byID($0, in: catalog) } ?? .next(in: catalog)
            let effect = try startGame(choice, by: user, at: now)
            guard case .scheduleRoundEnd(let number, let deadline) = effect else { return GameOutcome() }
            return GameOutcome(
                events: [.roundStarted(number: number, deadline: deadline)],
                effects: [.schedule(key: Self.roundEndSchedule, at: deadline, .endRound(round: number))])
        case .submitWord(let word):
            let before = version
            let verdict = try submitWord(word, by: user, at: now, wordList: environment.wordList)
            return GameOutcome(reply: verdict, events: version == before ? [] : [.wordSubmitted(user)])
        case .recordRematch(let code):
            return GameOutcome(events: try recordRematch(code, by: user))
        case .remove(let player):
            // The removed player's streams end, as if they had left.
            return GameOutcome(events: try remove(player, by: user), effects: [.revokeView(player)])
        case .handOverHost(let player):
            return GameOutcome(events: try handOverHost(to: player, by: user))
        case .endRound:
            return GameOutcome()  // Handled above.
        }
    }
}
