import ParlorClient
import ParlorRules
import ParlorWire

/// What a tic-tac-toe session reports. On a terminal it is all drawn on the screen; otherwise each
/// becomes one JSON object on a line of its own:
///
///     {"code":"4819273","event":"seat","ticTacToe":{…},"userId":"…"}
///     {"event":"ticTacToe","ticTacToe":{…the game's view…}}        null once deleted
///     {"action":"mark","event":"done"}
///     {"action":"mark","code":"CELL_TAKEN","event":"error","message":"Cell 4 is already marked."}
///     {"code":"5027361","event":"rematch"}
///     {"code":"4819273","event":"left"}
public enum TicTacToeOutput: Sendable, Equatable {
    case seat(TicTacToeSeatResult)
    case status(ConnectionState)
    /// A new version of the game; nil once it was deleted.
    case game(TicTacToeView?)
    case done(TicTacToePlay)
    case error(action: String?, code: String?, message: String)
    /// The players went on to a rematch with this code; the session goes on there.
    case rematch(code: String)
    case left(code: String)
    /// The host removed this terminal's player; the session ends.
    case removed(code: String)

    public var jsonLine: String {
        let line: ViewSessionJSON<TicTacToeView>.Line = switch self {
        case .seat(let seat): .seat(code: seat.ticTacToe.code, userId: seat.currentUserId, view: seat.ticTacToe)
        case .status(let state): .status(state)
        case .game(let game): .view(game)
        case .done(let action): .done(action: action.name)
        case .error(let action, let code, let message): .error(action: action, code: code, message: message)
        case .rematch(let code): .rematch(code: code)
        case .left(let code): .left(code: code)
        case .removed(let code): .removed(code: code)
        }
        return JSONLine.encode(ViewSessionJSON(line: line, viewKey: "ticTacToe"))
    }
}

extension TicTacToeOutput: GameOutput {}
