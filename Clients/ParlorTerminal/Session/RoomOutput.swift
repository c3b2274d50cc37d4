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

    /// The JSON line (without the newline).
    public var jsonLine: String { JSONLine.encode(JSONForm(self)) }

    static func error(_ error: ParlorClientError, action: String?) -> RoomOutput {
        .error(action: action, code: error.serverCode?.rawValue, message: error.description)
    }
}

/// The room's outputs by the name they had before lobbies came, which the tests still use.
public typealias SessionOutput = RoomOutput

extension RoomOutput: GameOutput {}

private struct JSONForm: Encodable {
    let output: RoomOutput

    init(_ output: RoomOutput) { self.output = output }

    enum Key: String, SessionJSONKey {
        case event, room, code, userId, state, attempt, reason, action, message
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch output {
        case .seat(let seat):
            try container.encode("seat", forKey: .event)
            try container.encode(seat.room.id, forKey: .code)
            try container.encode(seat.currentUserId, forKey: .userId)
            try container.encode(seat.room, forKey: .room)
        case .status(let state):
            try container.encodeStatus(state)
        case .room(let room):
            try container.encode("room", forKey: .event)
            try container.encode(room, forKey: .room)  // null once deleted
        case .done(let action):
            try container.encode("done", forKey: .event)
            try container.encode(action.name, forKey: .action)
        case .error(let action, let code, let message):
            try container.encodeError(action: action, code: code, message: message)
        case .left(let code):
            try container.encodeLeft(code: code)
        }
    }
}
