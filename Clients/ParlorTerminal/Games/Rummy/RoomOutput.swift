import ParlorClient
import ParlorRules
import ParlorWire

/// What a room session reports. On a terminal it is all drawn on the screen; otherwise each becomes one
/// JSON object on a line of its own.
public enum RoomOutput: Sendable, Equatable {
    /// Seated (after create or join).
    case seat(RoomServiceResult)
    case status(ConnectionState)
    /// A new version of the room; nil when it was deleted.
    case room(GameRoom?)
    /// An action was applied.
    case done(RoomAction)
    /// Something failed: a sentence for a person, and the server's code when it has one.
    case error(action: String?, code: String?, message: String)
    /// Left the room; the session ends.
    case left(code: String)
    /// The moderator took your seat away; the session ends.
    case removed(code: String)
    /// The moderator started a rematch in room `code`; the session goes on there.
    case rematch(code: String)

    /// The JSON line (without the newline).
    public var jsonLine: String {
        let line: ViewSessionJSON<GameRoom>.Line = switch self {
        case .seat(let seat): .seat(code: seat.room.id.rawValue, userId: seat.currentUserId, view: seat.room)
        case .status(let state): .status(state)
        case .room(let room): .view(room)
        case .done(let action): .done(action: action.name)
        case .error(let action, let code, let message): .error(action: action, code: code, message: message)
        case .left(let code): .left(code: code)
        case .removed(let code): .removed(code: code)
        case .rematch(let code): .rematch(code: code)
        }
        return JSONLine.encode(ViewSessionJSON(line: line, viewKey: "room"))
    }

    static func error(_ error: ParlorClientError, action: String?) -> RoomOutput {
        .error(action: action, code: error.serverCode?.rawValue, message: error.description)
    }
}

/// The room's outputs by the name they had before lobbies came, which the tests still use.
public typealias SessionOutput = RoomOutput

extension RoomOutput: GameOutput {}
