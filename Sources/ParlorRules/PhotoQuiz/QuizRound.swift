/// The photo being played: when it started, the order its tiles appear in, the guesses so far, and —
/// once revealed — the scored guesses.
public struct QuizRound: Sendable, Equatable, Codable {
    /// 1 for the session's first photo, and on (past the photo count in an endless session).
    public let number: Int
    /// Index into the quiz's `photos`.
    public let photo: Int
    public let startedAt: Instant
    /// When the last tile appears.
    public let revealEndsAt: Instant
    /// When guessing closes and the photo is revealed.
    public let guessDeadline: Instant
    /// The tiles (0…35, reading order) in the order they appear: a seeded shuffle.
    public let tileOrder: [Int]
    /// How many of `tileOrder` have appeared.
    public internal(set) var revealedCount: Int
    /// The photo's previews; only the appeared tiles' leave the rules.
    public let previews: TilePreviews?
    /// At most one per player, in the order first made (a second replaces the first).
    public internal(set) var guesses: [QuizGuess]
    /// Every guess scored; set when the photo is revealed.
    public internal(set) var scored: [ScoredGuess]?

    /// The tiles that have appeared, in the order they did.
    public var revealedTiles: ArraySlice<Int> { tileOrder.prefix(revealedCount) }

    /// When tile number `index` (0-based, in `tileOrder`) appears: the first at the start, the last at
    /// `revealEndsAt`, evenly between.
    public func appearance(ofTile index: Int) -> Instant {
        let span = startedAt.milliseconds(until: revealEndsAt)
        let steps = Int64(max(QuizLimits.tileCount - 1, 1))
        return startedAt.adding(milliseconds: span * Int64(index) / steps)
    }

    /// How many tiles have appeared by `now`.
    func tilesDue(at now: Instant) -> Int {
        var count = revealedCount
        while count < tileOrder.count && appearance(ofTile: count) <= now { count += 1 }
        return count
    }
}
