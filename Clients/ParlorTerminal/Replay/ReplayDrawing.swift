import Foundation
import ParlorRules
import ParlorWire

/// How `parlor replay` draws one kind of game (`GameCommands.replay`): the body of its live screen —
/// what lies between the status line and the keys — for one recorded view.
struct ReplayDrawing: Sendable {
    /// The body in at most `rows` rows of `width` columns; nil when the view cannot be read as this
    /// game's.
    let body: @Sendable (_ frame: ReplayFrame, _ width: Int, _ rows: Int) -> [ScreenLine]?
}

/// One recorded moment as a game's screen needs it.
struct ReplayFrame: Sendable {
    let server: String
    let code: String
    /// Who is watching the replay (their own seat is marked as on the live screen).
    let me: UserID?
    /// The public view after the step.
    let view: JSONFragment
    /// The watcher's own private view after the step, when they were a member then.
    let privateView: JSONFragment?
    /// When the step was taken, on the server's clock (a countdown shows the time left then).
    let at: Instant
}

extension JSONFragment {
    /// The fragment read as a wire type (a game's view), or nil when it is not one.
    func decoded<T: Decodable>(as type: T.Type) -> T? {
        guard let data = try? JSONEncoder().encode(self) else { return nil }
        return try? JSONDecoder().decode(type, from: data)
    }
}

/// Players' names as a view shows them, for the replay's status line: any object in the view with an
/// id (`id`, `userId`, `playerId`) and a name (`name`, `username`, `playerName`).
enum ReplayNames {
    static func name(of user: UserID, in view: JSONFragment) -> String? {
        switch view {
        case .object(let fields):
            if let id = idField(fields), id == user.rawValue, let name = nameField(fields) { return name }
            for value in fields.values { if let name = name(of: user, in: value) { return name } }
            return nil
        case .array(let values):
            for value in values { if let name = name(of: user, in: value) { return name } }
            return nil
        case .null, .bool, .number, .string:
            return nil
        }
    }

    private static func idField(_ fields: [String: JSONFragment]) -> String? {
        for key in ["id", "userId", "playerId"] { if case .string(let id)? = fields[key] { return id } }
        return nil
    }

    private static func nameField(_ fields: [String: JSONFragment]) -> String? {
        for key in ["name", "username", "playerName"] { if case .string(let name)? = fields[key] { return name } }
        return nil
    }
}
