import ParlorWire

/// What a subscription watches. The client keeps one server subscription per target, however many
/// streams its callers hold for it.
enum SubscriptionTarget: Hashable, Sendable, CustomStringConvertible {
    case room(code: String)
    case lobby(id: String)
    /// A lobby's public view, watched by its code without a seat (`watchLobby`).
    case watchedLobby(code: String)
    case match(code: String)
    case quiz(code: String)

    /// The request that (re-)subscribes.
    var observeOperation: Operation {
        switch self {
        case .room(let code): .observeRoom(CodeArguments(code: code))
        case .lobby(let id): .observeLobby(LobbyIdArguments(lobbyId: id))
        case .watchedLobby(let code): .watchLobby(LobbyCodeArguments(lobbyCode: code))
        case .match(let code): .observeMatch(MatchCodeArguments(code: code))
        case .quiz(let code): .observeQuiz(QuizCodeArguments(code: code))
        }
    }

    /// Whether `code` says we may no longer watch the target, though it exists (a lobby we were removed
    /// from): its streams end rather than retry.
    func isRevoked(_ code: ErrorCode) -> Bool {
        switch self {
        case .lobby: code == .notLobbyMember
        case .watchedLobby, .room, .match, .quiz: false
        }
    }

    /// Whether `code` says the target no longer exists (so its streams end rather than retry).
    func isGone(_ code: ErrorCode) -> Bool {
        switch self {
        case .room: code == .roomNotFound || code == .invalidRoomCode || code == .notFound
        case .lobby: code == .lobbyNotFound || code == .notFound
        case .watchedLobby: code == .lobbyNotFound || code == .invalidInput || code == .notFound
        case .match: code == .matchNotFound || code == .invalidInput || code == .notFound
        case .quiz: code == .quizNotFound || code == .invalidInput || code == .notFound
        }
    }

    /// Whether its events are a lobby's.
    var isLobby: Bool {
        switch self {
        case .lobby, .watchedLobby: true
        case .room, .match, .quiz: false
        }
    }

    var description: String {
        switch self {
        case .room(let code): "room \(code)"
        case .lobby(let id): "lobby \(id)"
        case .watchedLobby(let code): "lobby \(code)"
        case .match(let code): "match \(code)"
        case .quiz(let code): "quiz \(code)"
        }
    }
}
