/// Why a word lobby operation was refused, by the seed's canonical status. Each case carries the
/// specific reason, which the wire maps to its own stable code (`LOBBY_NOT_OPEN`, `TOO_MANY_WORDS`, …).
public enum LobbyError: Error, Sendable, Equatable {
    case invalidArgument(field: String, reason: String)
    case notFound(Missing)
    case failedPrecondition(Precondition)
    case permissionDenied(Permission)
    case resourceExhausted(Exhaustion)
    case unauthenticated
    case `internal`(String)

    public enum Missing: Sendable, Equatable {
        case lobby(String)
        case game(id: String)
        /// Nobody with this id sits in the lobby.
        case player(UserID)
    }

    public enum Precondition: Sendable, Equatable {
        /// Joining or starting needs the lobby between rounds (`OPEN`).
        case lobbyNotOpen
        /// Submitting needs a running round.
        case roundNotRunning
        /// The round's deadline has passed; the timer has not ended it yet.
        case deadlinePassed
        /// "Next game" was asked of a catalog without games.
        case noGamesAvailable
        /// The match's last round is over: no more rounds, no newcomers.
        case matchFinished
        /// A rematch needs the match to be over.
        case matchNotFinished
        /// A rematch was started already (in the lobby with this code).
        case rematchStarted(LobbyCode)
    }

    public enum Permission: Sendable, Equatable {
        /// `action` completes "Only the lobby's creator can …".
        case notCreator(action: String)
        case notMember
    }

    public enum Exhaustion: Sendable, Equatable {
        case lobbyFull(capacity: Int)
        case noFreeCode
        case tooManyWords(limit: Int)
    }

    /// The seed's canonical status string.
    public var status: String {
        switch self {
        case .invalidArgument: "invalid-argument"
        case .notFound: "not-found"
        case .failedPrecondition: "failed-precondition"
        case .permissionDenied: "permission-denied"
        case .resourceExhausted: "resource-exhausted"
        case .unauthenticated: "unauthenticated"
        case .internal: "internal"
        }
    }

    /// A sentence for the person who asked.
    public var message: String {
        switch self {
        case .invalidArgument(_, let reason): reason
        case .notFound(.lobby(let id)): "Lobby \(Self.clip(id)) was not found."
        case .notFound(.game(let id)): "Game \(Self.clip(id)) is not in the catalog."
        case .notFound(.player(let id)): "Player \(id) is not in this lobby."
        case .failedPrecondition(.lobbyNotOpen): "The lobby is in a round; wait until the round ends."
        case .failedPrecondition(.roundNotRunning): "No round is running."
        case .failedPrecondition(.deadlinePassed): "The round's time is up."
        case .failedPrecondition(.noGamesAvailable): "The catalog has no games to play."
        case .failedPrecondition(.matchFinished): "The match is over; the creator can start a rematch."
        case .failedPrecondition(.matchNotFinished): "The match is not over yet; a rematch starts once it is."
        case .failedPrecondition(.rematchStarted(let code)): "A rematch was already started: lobby \(code)."
        case .permissionDenied(.notCreator(let action)): "Only the lobby's creator can \(action)."
        case .permissionDenied(.notMember): "You are not in this lobby."
        case .resourceExhausted(.lobbyFull(let capacity)): "The lobby is full (\(capacity) of \(capacity) players)."
        case .resourceExhausted(.noFreeCode): "No free lobby code could be found; try again."
        case .resourceExhausted(.tooManyWords(let limit)): "You can submit at most \(limit) words in a round."
        case .unauthenticated: "Sign in first."
        case .internal(let detail): detail
        }
    }

    private static func clip(_ text: String) -> String {
        text.count <= 40 ? text : String(text.prefix(40)) + "…"
    }
}
