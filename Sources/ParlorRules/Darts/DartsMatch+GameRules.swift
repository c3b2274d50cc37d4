/// A darts match on the game kernel: players' actions only, nothing scheduled, nothing private —
/// anyone may watch (friends following from elsewhere).
extension DartsMatch: GameRules {
    public typealias Action = DartsAction
    public typealias Failure = DartsError
    public typealias Event = DartsEvent

    /// The account players still at the match: the match is in use while any of them is connected.
    public var members: [UserID] { accountPlayers }

    /// The last account player leaving deletes the match; the match finishing files it in every account
    /// player's history.
    public mutating func apply(
        _ action: DartsAction, by caller: Caller, at now: Instant, in _: Void
    ) throws(DartsError) -> GameOutcome<DartsMatch> {
        guard let user = caller.user else {
            throw .invalidState(reason: "Matches schedule nothing, so nothing can fire on their behalf.")
        }
        let wasFinished = status == .finished
        let events = try apply(action, by: user, at: now)
        var outcome = GameOutcome<DartsMatch>(events: events)
        if events.contains(.deleted) {
            outcome.effects.append(.delete)
        } else if status == .finished && !wasFinished {
            outcome.effects.append(.archive(GameArchive(
                key: id, players: historyPlayers, finishedAt: finishedAt ?? now, tallies: accountTallies)))
        }
        return outcome
    }

    /// The host's live games count the match: its creator, or whoever took over as host — also in a
    /// rematch, whose first seat is the next player's (`DartsMatch+Rematch`).
    public var owner: UserID? { hostId }

    /// A finished match is over: friends see its players as no longer playing it.
    public var playing: [UserID] { status == .finished ? [] : members }

    public var stage: GameStage {
        switch status {
        case .waiting: .waiting
        case .playing: .playing
        case .finished: .finished
        }
    }

    /// Everything in a match is public.
    public var publicView: DartsMatch { self }

    /// Whose history a finished match goes into: every account player who played it, also one who left
    /// during it.
    public var historyPlayers: [UserID] { players.filter { !$0.isGuest }.map(\.id) }
}
