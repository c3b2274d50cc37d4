import ParlorClient
import ParlorRules
import ParlorWire

/// What a photo quiz session reports. On a terminal it is all drawn on the screen; otherwise each becomes
/// one JSON object on a line of its own:
///
///     {"code":"QX7KM","event":"seat","quiz":{…},"userId":"…"}
///     {"event":"status","state":"connected","userId":"…"}
///     {"event":"quiz","quiz":{…the quiz view…}}          null once deleted
///     {"action":"guess","event":"done"}
///     {"action":"guess","code":"OWN_PHOTO","event":"error","message":"…"}
///     {"code":"WPKTH","event":"rematch"}
///     {"code":"QX7KM","event":"left"}
///     {"code":"QX7KM","event":"removed"}
public enum QuizOutput: Sendable, Equatable {
    /// Seated (after create or join).
    case seat(QuizSeatResult)
    case status(ConnectionState)
    /// A new version of the quiz; nil once it was deleted.
    case quiz(QuizView?)
    /// An action was applied.
    case done(QuizAction)
    case error(action: String?, code: String?, message: String)
    /// The players went on to a rematch with this code; the session goes on there.
    case rematch(code: String)
    /// Left the quiz; the session ends.
    case left(code: String)
    /// The host removed this terminal's player; the session ends.
    case removed(code: String)

    public var jsonLine: String {
        let line: ViewSessionJSON<QuizView>.Line = switch self {
        case .seat(let seat): .seat(code: seat.quiz.code.rawValue, userId: seat.currentUserId, view: seat.quiz)
        case .status(let state): .status(state)
        case .quiz(let quiz): .view(quiz)
        case .done(let action): .done(action: action.name)
        case .error(let action, let code, let message): .error(action: action, code: code, message: message)
        case .rematch(let code): .rematch(code: code)
        case .left(let code): .left(code: code)
        case .removed(let code): .removed(code: code)
        }
        return JSONLine.encode(ViewSessionJSON(line: line, viewKey: "quiz"))
    }
}

extension QuizOutput: GameOutput {}
