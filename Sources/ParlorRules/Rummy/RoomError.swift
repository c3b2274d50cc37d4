/// Why a rummy room operation was refused. Cases map 1:1 to the seed's error codes; never rename one.
public enum RoomError: Error, Sendable, Equatable {
    case roomNotFound(code: String)
    case roomFull(code: RoomCode, capacity: Int)
    /// `action` completes "Only the moderator can …", e.g. "start the game".
    case notModerator(action: String)
    case playerNotFound(playerId: String)
    case invalidRoomCode(CodeFormatError)
    /// `reason` is a full sentence.
    case invalidState(reason: String)
    /// `reason` is a full sentence naming `field`.
    case invalidInput(field: String, reason: String)

    /// The seed's name for the error (`roomNotFound`, …).
    public enum Kind: String, Sendable, CaseIterable {
        case roomNotFound, roomFull, notModerator, playerNotFound, invalidRoomCode, invalidState, invalidInput
    }

    public var kind: Kind {
        switch self {
        case .roomNotFound: .roomNotFound
        case .roomFull: .roomFull
        case .notModerator: .notModerator
        case .playerNotFound: .playerNotFound
        case .invalidRoomCode: .invalidRoomCode
        case .invalidState: .invalidState
        case .invalidInput: .invalidInput
        }
    }

    /// A sentence for the person who asked.
    public var message: String {
        switch self {
        case .roomNotFound(let code): "Room \(Self.clip(code)) was not found."
        case .roomFull(let code, let capacity): "Room \(code) is full (\(capacity) of \(capacity) seats)."
        case .notModerator(let action): "Only the moderator can \(action)."
        case .playerNotFound(let playerId): "Player \(Self.clip(playerId)) is not in this room."
        case .invalidRoomCode(let problem): problem.message
        case .invalidState(let reason): reason
        case .invalidInput(_, let reason): reason
        }
    }

    /// Echoed input is cut short so a huge argument cannot bloat a reply.
    private static func clip(_ text: String) -> String {
        text.count <= 40 ? text : String(text.prefix(40)) + "…"
    }
}
