import ParlorRules

/// Something the person at this terminal (or the script) asked to do to a darts match.
public enum MatchAction: Sendable, Equatable {
    /// Add a guest the host scores for (host only).
    case addGuest(name: String)
    /// Start the match (host only).
    case start
    /// Record the visit of `player`, the one to throw: its darts in notation, or its total.
    case visit(player: UserID, darts: [String]?, total: Int?)
    /// Replace the last visit (number `visit`, when known).
    case edit(visit: Int?, darts: [String]?, total: Int?)
    /// Take the last visit back (number `visit`, when known).
    case undo(visit: Int?)
    /// Start the next match of a finished one (host only); the session follows it there.
    case rematch
    /// Take this player's or guest's seat away (host only, before the start).
    case kick(UserID)
    /// Give up the seat; the session ends.
    case leave
    /// Close this terminal; the seat stays.
    case quit

    /// The name scripts see in `{"event":"done","action":…}`.
    public var name: String {
        switch self {
        case .addGuest: "guest"
        case .start: "start"
        case .visit: "visit"
        case .edit: "edit"
        case .undo: "undo"
        case .rematch: "rematch"
        case .kick: "kick"
        case .leave: "leave"
        case .quit: "quit"
        }
    }
}
