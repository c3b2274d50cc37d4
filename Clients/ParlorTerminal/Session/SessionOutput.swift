import Foundation
import ParlorClient
import ParlorRules
import ParlorWire

/// What a session reports. On a terminal it is all drawn on the screen; otherwise each becomes one JSON
/// object on a line of its own.
public enum SessionOutput: Sendable, Equatable {
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
    public var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(JSONForm(self)) else {
            return #"{"event":"error","message":"This event could not be written as JSON."}"#
        }
        return String(decoding: data, as: UTF8.self)
    }

    static func error(_ error: ParlorClientError, action: String?) -> SessionOutput {
        .error(action: action, code: error.serverCode?.rawValue, message: error.description)
    }
}

private struct JSONForm: Encodable {
    let output: SessionOutput

    init(_ output: SessionOutput) { self.output = output }

    enum Key: String, CodingKey {
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
            try container.encode("status", forKey: .event)
            switch state {
            case .connecting:
                try container.encode("connecting", forKey: .state)
            case .connected(let userId):
                try container.encode("connected", forKey: .state)
                try container.encode(userId, forKey: .userId)
            case .reconnecting(let attempt, let reason):
                try container.encode("reconnecting", forKey: .state)
                try container.encode(attempt, forKey: .attempt)
                try container.encode(reason, forKey: .reason)
            case .closed(let reason):
                try container.encode("closed", forKey: .state)
                try container.encodeIfPresent(reason, forKey: .reason)
            }
        case .room(let room):
            try container.encode("room", forKey: .event)
            if let room { try container.encode(room, forKey: .room) } else { try container.encodeNil(forKey: .room) }
        case .done(let action):
            try container.encode("done", forKey: .event)
            try container.encode(action.name, forKey: .action)
        case .error(let action, let code, let message):
            try container.encode("error", forKey: .event)
            try container.encodeIfPresent(action, forKey: .action)
            try container.encodeIfPresent(code, forKey: .code)
            try container.encode(message, forKey: .message)
        case .left(let code):
            try container.encode("left", forKey: .event)
            try container.encode(code, forKey: .code)
        }
    }
}
