import ParlorRules

/// Something the person at this terminal (or the script) asked of a tic-tac-toe game.
public enum TicTacToePlay: Sendable, Equatable {
    /// Mark cell 0–8 (row by row).
    case mark(cell: Int)
    /// Start the next game of a finished one (either player).
    case rematch
    /// Take the other player's seat away (the host, X): the board is cleared.
    case kick(UserID)
    /// Give up the seat (during a game the other player wins); the session ends.
    case leave
    /// Close this terminal; the seat stays.
    case quit

    /// The name scripts see in `{"event":"done","action":…}`.
    public var name: String {
        switch self {
        case .mark: "mark"
        case .rematch: "rematch"
        case .kick: "kick"
        case .leave: "leave"
        case .quit: "quit"
        }
    }

    /// What a script's line asks (`mark N` with N 1–9, `rematch`, `leave`, `game`, `quit`; `kick NAME` is
    /// `KickRule`'s, read first by the session); nil for a blank line.
    static func parseScript(_ line: String) -> Result<ScriptRequest<TicTacToePlay>, ScriptCommandError>? {
        let words = line.split(whereSeparator: \.isWhitespace).map { $0.lowercased() }
        guard let verb = words.first else { return nil }
        let rest = words.dropFirst()
        switch (verb, rest.count) {
        case ("mark", 1):
            guard let number = Int(rest[rest.startIndex]), (1...9).contains(number) else {
                return .failure(ScriptCommandError("mark takes a cell from 1 to 9, row by row (got \"\(rest[rest.startIndex])\")."))
            }
            return .success(.action(.mark(cell: number - 1)))
        case ("rematch", 0): return .success(.action(.rematch))
        case ("leave", 0): return .success(.action(.leave))
        case ("quit", 0), ("exit", 0): return .success(.action(.quit))
        case ("game", 0), ("show", 0): return .success(.show)
        default: return .failure(ScriptCommandError("Unknown command \"\(line.trimmedLine)\"; use \(scriptUsage)."))
        }
    }

    static let scriptUsage = "mark N (1–9), rematch, kick NAME, leave, game or quit"
}
