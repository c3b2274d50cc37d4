import ParlorRules

/// Something the person at this terminal (or the script) asked to do to a photo quiz.
public enum QuizAction: Sendable, Equatable {
    /// Start the quiz (host only).
    case start
    /// Guess where the current photo was taken; `place` is the place typed, when it was a name.
    case guess(latitude: Double, longitude: Double, place: String?)
    /// Reveal the current photo now (host only).
    case reveal
    /// The next photo, or the standings after the last (host only).
    case next
    /// End the quiz with the standings (host only).
    case end
    /// Start the next quiz of a finished one (host only); the session follows it there.
    case rematch
    /// Take this player's seat away (host only).
    case kick(UserID)
    /// Give up the seat; the session ends.
    case leave
    /// Close this terminal; the seat stays.
    case quit

    /// The name scripts see in `{"event":"done","action":…}`.
    public var name: String {
        switch self {
        case .start: "start"
        case .guess: "guess"
        case .reveal: "reveal"
        case .next: "next"
        case .end: "end"
        case .rematch: "rematch"
        case .kick: "kick"
        case .leave: "leave"
        case .quit: "quit"
        }
    }
}
