import ParlorWire

/// What a subscription watches. The client keeps one server subscription per target, however many
/// streams its callers hold for it.
enum SubscriptionTarget: Hashable, Sendable, CustomStringConvertible {
    case room(code: String)
    case lobby(id: String)
    case match(code: String)

    /// The request that (re-)subscribes.
    var observeOperation: Operation {
        switch self {
        case .room(let code): .observeRoom(CodeArguments(code: code))
        case .lobby(let id): .observeLobby(LobbyIdArguments(lobbyId: id))
        case .match(let code): .observeMatch(MatchCodeArguments(code: code))
        }
    }

    /// Whether `code` says the target no longer exists (so its streams end rather than retry).
    func isGone(_ code: ErrorCode) -> Bool {
        switch self {
        case .room: code == .roomNotFound || code == .invalidRoomCode || code == .notFound
        case .lobby: code == .lobbyNotFound || code == .notFound
        case .match: code == .matchNotFound || code == .invalidInput || code == .notFound
        }
    }

    var description: String {
        switch self {
        case .room(let code): "room \(code)"
        case .lobby(let id): "lobby \(id)"
        case .match(let code): "match \(code)"
        }
    }
}
