import ParlorClient
import ParlorRules

/// The JSON lines of a game whose stream carries one public view (rooms, matches), written once for
/// all of them; `viewKey` names the view (`room`, `match`):
///
///     {"code":…,"event":"seat","<view>":{…},"userId":…}
///     {"event":"<view>","<view>":{…}}        null once deleted
///     {"action":…,"event":"done"}
///
/// plus the `status`, `error` and `left` lines every game writes.
struct ViewSessionJSON<View: Encodable>: Encodable {
    enum Line {
        case seat(code: String, userId: UserID, view: View)
        case status(ConnectionState)
        case view(View?)
        case done(action: String)
        case error(action: String?, code: String?, message: String)
        case left(code: String)
        case removed(code: String)
        case rematch(code: String)
    }

    let line: Line
    let viewKey: String

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: NamedKey.self)
        let view = NamedKey(viewKey)
        switch line {
        case .seat(let code, let userId, let seat):
            try container.encode("seat", forKey: .event)
            try container.encode(code, forKey: .code)
            try container.encode(userId, forKey: .userId)
            try container.encode(seat, forKey: view)
        case .status(let state):
            try container.encodeStatus(state)
        case .view(let current):
            try container.encode(viewKey, forKey: .event)
            try container.encode(current, forKey: view)  // null once deleted
        case .done(let action):
            try container.encode("done", forKey: .event)
            try container.encode(action, forKey: .action)
        case .error(let action, let code, let message):
            try container.encodeError(action: action, code: code, message: message)
        case .left(let code):
            try container.encodeLeft(code: code)
        case .removed(let code):
            try container.encodeRemoved(code: code)
        case .rematch(let code):
            try container.encodeRematch(code: code)
        }
    }

    /// Any key by name, with the session's own among them.
    struct NamedKey: SessionJSONKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }

        static var event: NamedKey { NamedKey("event") }
        static var state: NamedKey { NamedKey("state") }
        static var userId: NamedKey { NamedKey("userId") }
        static var attempt: NamedKey { NamedKey("attempt") }
        static var reason: NamedKey { NamedKey("reason") }
        static var action: NamedKey { NamedKey("action") }
        static var code: NamedKey { NamedKey("code") }
        static var message: NamedKey { NamedKey("message") }
    }
}
