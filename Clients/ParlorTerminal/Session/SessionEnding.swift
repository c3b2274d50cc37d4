/// Why a session ends, in every game.
enum SessionEnding: Sendable, Equatable {
    /// The person or script quit, or a signal came.
    case quit
    case left
    /// The moderator (or creator) took our seat away.
    case removed
    /// The room or lobby was deleted.
    case deleted
    /// The game's players went on to a rematch with this code: the session follows them there.
    case rematch(code: String)
    /// The client closed under us (it cannot reconnect).
    case connectionClosed

    var exitStatus: Int32 { self == .connectionClosed ? 1 : 0 }
}
