import ParlorClient
import ParlorRules
import ParlorWire

/// What a darts session reports. On a terminal it is all drawn on the scoreboard; otherwise each becomes
/// one JSON object on a line of its own:
///
///     {"code":"QX7KM","event":"seat","match":{…},"userId":"…"}
///     {"event":"status","state":"connected","userId":"…"}
///     {"event":"match","match":{…the match view…}}          null once deleted
///     {"action":"visit","event":"done"}
///     {"action":"visit","code":"NOT_YOUR_TURN","event":"error","message":"It is Ann's turn to throw."}
///     {"code":"QX7KM","event":"left"}
public enum MatchOutput: Sendable, Equatable {
    /// Seated (after create or join).
    case seat(MatchSeatResult)
    case status(ConnectionState)
    /// A new version of the match; nil once it was deleted.
    case match(MatchView?)
    /// An action was applied.
    case done(MatchAction)
    /// Something failed: a sentence for a person, and the server's code when it has one.
    case error(action: String?, code: String?, message: String)
    /// Left the match; the session ends.
    case left(code: String)

    /// The JSON line (without the newline).
    public var jsonLine: String { JSONLine.encode(MatchJSONForm(self)) }
}

extension MatchOutput: GameOutput {}

private struct MatchJSONForm: Encodable {
    let output: MatchOutput

    init(_ output: MatchOutput) { self.output = output }

    enum Key: String, SessionJSONKey {
        case event, match, code, userId, state, attempt, reason, action, message
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch output {
        case .seat(let seat):
            try container.encode("seat", forKey: .event)
            try container.encode(seat.match.id, forKey: .code)
            try container.encode(seat.currentUserId, forKey: .userId)
            try container.encode(seat.match, forKey: .match)
        case .status(let state):
            try container.encodeStatus(state)
        case .match(let match):
            try container.encode("match", forKey: .event)
            try container.encode(match, forKey: .match)  // null once deleted
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
