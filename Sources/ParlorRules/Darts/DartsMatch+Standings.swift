/// What follows from the visits: whose turn it is, each seat's score, legs and sets won, the finish to
/// suggest. Derived every time rather than kept, so nothing can disagree with the visits.
extension DartsMatch {
    /// The leg being played (the deciding leg once finished); nil before the start.
    public var currentLeg: DartsLeg? { legs.last }

    /// The seat to throw next; nil unless the match is being played.
    public var currentPlayer: Int? {
        guard status == .playing, let leg = currentLeg, !players.isEmpty else { return nil }
        return (leg.starter + leg.visits.count) % players.count
    }

    /// `seat`'s score in the current leg.
    public func remaining(of seat: Int) -> Int {
        lastVisit(of: seat)?.scored.remainingAfter ?? settings.gameType.startingScore
    }

    /// Whether `seat` has opened its scoring in the current leg (always, under straight in).
    public func hasOpened(_ seat: Int) -> Bool {
        lastVisit(of: seat)?.scored.openedAfter ?? (settings.inRule == .straight)
    }

    /// `seat`'s visits in the current leg.
    public func visits(of seat: Int) -> [DartsVisit] {
        currentLeg?.visits.filter { $0.player == seat } ?? []
    }

    private func lastVisit(of seat: Int) -> DartsVisit? {
        currentLeg?.visits.last { $0.player == seat }
    }

    /// Legs `seat` has won in the current set (in the match, when there are no sets).
    public func legsWon(by seat: Int) -> Int {
        guard let set = currentLeg?.set else { return 0 }
        return legs.count(where: { $0.set == set && $0.winner == seat })
    }

    /// Legs `seat` has won in the whole match.
    public func totalLegsWon(by seat: Int) -> Int {
        legs.count(where: { $0.winner == seat })
    }

    /// Sets `seat` has won; always 0 in a match without sets.
    public func setsWon(by seat: Int) -> Int {
        guard settings.sets != nil, let last = currentLeg?.set else { return 0 }
        return (1...last).count(where: { set in legs.count(where: { $0.set == set && $0.winner == seat }) == settings.legs })
    }

    /// Visits recorded in the whole match; the last one is number `visitCount`.
    public var visitCount: Int { legs.reduce(0) { $0 + $1.visits.count } }

    /// The last visit of the match: the only one that may be edited.
    public var lastVisit: DartsVisit? { legs.last { !$0.visits.isEmpty }?.visits.last }

    /// The finish to suggest to the seat about to throw, with three darts; nil when there is none (or
    /// the seat has not opened yet).
    public var checkout: [Dart]? {
        guard let seat = currentPlayer, hasOpened(seat) else { return nil }
        return CheckoutTable.standard.suggestion(
            for: remaining(of: seat), darts: DartsLimits.dartsPerVisit, outRule: settings.outRule)
    }

    /// Account players still at the match, in seat order.
    public var accountPlayers: [UserID] { players.filter { !$0.isGuest && !$0.hasLeft }.map(\.id) }
}
