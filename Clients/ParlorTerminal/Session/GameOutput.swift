import Foundation
import ParlorClient

/// What a game's session reports, as the game's own enum. The session itself reports the connection
/// (`status`) and a script's unreadable line (`error`), so every game has those two among its cases;
/// on a terminal all of it is drawn on the screen, otherwise each output is one JSON line.
protocol GameOutput: Sendable, Equatable {
    static func status(_ state: ConnectionState) -> Self
    /// Something failed: a sentence for a person, and the server's code when it has one.
    static func error(action: String?, code: String?, message: String) -> Self
    /// This terminal's seat in the place with this code was given up.
    static func left(code: String) -> Self
    /// The host took this terminal's seat in the place with this code away.
    static func removed(code: String) -> Self
    /// The JSON line (without the newline); `JSONLine.encode` writes it.
    var jsonLine: String { get }
}

/// One output as one line of JSON, written the same way for every game: keys sorted, so scripts can
/// rely on their order, and slashes left alone.
enum JSONLine {
    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else {
            return #"{"event":"error","message":"This event could not be written as JSON."}"#
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The fields of the lines every game writes alike (`status`, `error`, `left`); a game's coding keys
/// have these among their cases.
protocol SessionJSONKey: CodingKey {
    static var event: Self { get }
    static var state: Self { get }
    static var userId: Self { get }
    static var attempt: Self { get }
    static var reason: Self { get }
    static var action: Self { get }
    static var code: Self { get }
    static var message: Self { get }
}

extension KeyedEncodingContainer where K: SessionJSONKey {
    /// `{"event":"status","state":"connected","userId":…}`, `"reconnecting"` with `attempt` and
    /// `reason`, `"connecting"`, `"closed"` with the reason if there is one.
    mutating func encodeStatus(_ state: ConnectionState) throws {
        try encode("status", forKey: .event)
        switch state {
        case .connecting:
            try encode("connecting", forKey: .state)
        case .connected(let userId):
            try encode("connected", forKey: .state)
            try encode(userId, forKey: .userId)
        case .reconnecting(let attempt, let reason):
            try encode("reconnecting", forKey: .state)
            try encode(attempt, forKey: .attempt)
            try encode(reason, forKey: .reason)
        case .closed(let reason):
            try encode("closed", forKey: .state)
            try encodeIfPresent(reason, forKey: .reason)
        }
    }

    /// `{"event":"error","action":…,"code":…,"message":…}`; action and code only when known.
    mutating func encodeError(action: String?, code: String?, message: String) throws {
        try encode("error", forKey: .event)
        try encodeIfPresent(action, forKey: .action)
        try encodeIfPresent(code, forKey: .code)
        try encode(message, forKey: .message)
    }

    /// `{"event":"left","code":…}`: the session ends.
    mutating func encodeLeft(code: String) throws {
        try encode("left", forKey: .event)
        try encode(code, forKey: .code)
    }

    /// `{"event":"removed","code":…}`: the game's moderator took your seat away.
    mutating func encodeRemoved(code: String) throws {
        try encode("removed", forKey: .event)
        try encode(code, forKey: .code)
    }

    /// `{"event":"rematch","code":…}`: the session goes on to the rematch.
    mutating func encodeRematch(code: String) throws {
        try encode("rematch", forKey: .event)
        try encode(code, forKey: .code)
    }
}
