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
///     {"code":"4CWX9","event":"rematch"}
///     {"code":"QX7KM","event":"left"}
///     {"code":"QX7KM","event":"removed"}
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
    /// The players went on to a rematch with this code; the session goes on there.
    case rematch(code: String)
    /// Left the match; the session ends.
    case left(code: String)
    /// The host removed this terminal's player; the session ends.
    case removed(code: String)

    /// The JSON line (without the newline).
    public var jsonLine: String {
        let line: ViewSessionJSON<MatchView>.Line = switch self {
        case .seat(let seat): .seat(code: seat.match.id, userId: seat.currentUserId, view: seat.match)
        case .status(let state): .status(state)
        case .match(let match): .view(match)
        case .done(let action): .done(action: action.name)
        case .error(let action, let code, let message): .error(action: action, code: code, message: message)
        case .rematch(let code): .rematch(code: code)
        case .left(let code): .left(code: code)
        case .removed(let code): .removed(code: code)
        }
        return JSONLine.encode(ViewSessionJSON(line: line, viewKey: "match"))
    }
}

extension MatchOutput: GameOutput {}
