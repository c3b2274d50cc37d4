/// A visit as a client sent it: exactly one of `darts` (notation) and `total`. The rules read it, so a
/// bad dart is refused by name with the rest of the visit's checks.
public struct VisitInput: Sendable, Equatable, Codable {
    public var darts: [String]?
    public var total: Int?

    public init(darts: [String]? = nil, total: Int? = nil) {
        self.darts = darts
        self.total = total
    }
}

/// Everything that can be done to a darts match. All by players (nothing is scheduled).
public enum DartsAction: Sendable, Equatable, Codable {
    case join(playerName: String)
    /// The host adds a guest; the server made `id`.
    case addGuest(name: String, id: UserID)
    case removePlayer(playerId: UserID)
    case start
    case leave
    case recordVisit(playerId: UserID, visit: VisitInput)
    /// Replaces the last visit of the match; `number`, when given, must be that visit's number.
    case editLastVisit(number: Int?, visit: VisitInput)
    /// Takes the last visit of the match back; `number`, when given, must be that visit's number.
    case undoLastVisit(number: Int?)
    /// The kernel records the rematch's code (`Rematchable`); no client sends it.
    case recordRematch(code: String)
    /// The host makes another account player the host (`HostHandover`, `transferHost` on the wire).
    case handOverHost(to: UserID)
}

/// What an applied action changed.
public enum DartsEvent: Sendable, Equatable {
    case joined(UserID)
    case rejoined(UserID)
    case guestAdded(UserID)
    case removed(UserID)
    case left(UserID)
    case hostChanged(UserID)
    case started
    case visitRecorded(seat: Int, ScoredVisit)
    case visitEdited(seat: Int, ScoredVisit)
    case visitUndone(seat: Int)
    case legWon(seat: Int)
    case setWon(seat: Int)
    case matchWon(seat: Int)
    /// The host started a rematch of the finished match: its code.
    case rematchStarted(MatchCode)
    case deleted
}
