/// Why a session ends, in every game.
enum SessionEnding: Sendable, Equatable {
    /// The person or script quit, or a signal came.
    case quit
    case left
    /// The room or lobby was deleted.
    case deleted
    /// The client closed under us (it cannot reconnect).
    case connectionClosed

    var exitStatus: Int32 { self == .connectionClosed ? 1 : 0 }
}
