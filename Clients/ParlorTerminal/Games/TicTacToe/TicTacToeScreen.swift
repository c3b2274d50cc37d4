import ParlorClient
import ParlorRules
import ParlorWire

/// Draws the tic-tac-toe screen: a pure function of the state and the terminal's size.
///
/// From the top: the status bar, the code in block letters while the game waits for its second player,
/// who plays whom (with their marks and who is connected), whose turn it is or how it ended, and the
/// board — empty cells show their number, the cursor is highlighted, a winning line stands out. At the
/// bottom: the message line (or the command being typed after `/`) and the keys.
public enum TicTacToeScreen {
    /// Exactly `height` lines, none wider than `width` columns.
    public static func render(_ state: TicTacToeScreenState, width: Int, height: Int) -> [ScreenLine] {
        let width = max(width, 1)
        let height = max(height, 1)
        let status = StatusBar.line(server: state.server, connection: state.connection, version: state.game?.version, access: state.access, width: width)
        var message = state.message.map { ScreenLine("  " + $0.text, $0.isError ? .bad : .plain) } ?? ScreenLine()
        if let command = state.command {
            // A command being typed takes the message line until Enter or Esc.
            message = ScreenLine("  /", .bold)
            message.append(TextWidth.fit(command, width: max(width - 4, 1)) + "▏", .highlight)
            message.append("  Enter runs · Esc cancels", .dim)
        }
        let bottom = [message, KeysLine.line(keys(state), width: width)]
        return ScreenLayout.compose(status: status, bottom: bottom, width: width, height: height) { rows in
            body(state, width: width, rows: rows)
        }
    }

    /// What lies between the status bar and the message line, in `rows` rows (also a replay's step).
    static func body(_ state: TicTacToeScreenState, width: Int, rows: Int) -> [ScreenLine] {
        let summary = [""] + summary(state)
        guard let game = state.game, !state.deleted else { return summary }
        let board = [""] + board(state, game)
        let big = game.status == "waiting" ? BlockFont.lines(game.code, width: width) : []
        if !big.isEmpty, big.count + 1 + summary.count + board.count <= rows { return [""] + big + summary + board }
        return summary + board
    }

    /// The text only (what tests compare).
    public static func text(_ state: TicTacToeScreenState, width: Int, height: Int) -> [String] {
        render(state, width: width, height: height).map(\.text)
    }

    static func summary(_ state: TicTacToeScreenState) -> [ScreenLine] {
        guard let game = state.game else {
            return [
                ScreenLine("  Tic-tac-toe \(state.code)"),
                ScreenLine(state.deleted ? "  This game was deleted." : "  Loading the game…", state.deleted ? .bad : .dim),
            ]
        }
        var players = ScreenLine("  Tic-tac-toe \(game.code)")
        for (index, player) in game.players.enumerated() {
            players.append(index == 0 ? " · " : " vs ")
            players.spans += PresenceDot.prefix(player.playerId, in: state.presence)
            players.append("\(player.mark) \(player.name)", .bold)
            if player.playerId == state.me { players.append(" (you)") }
        }
        let line: ScreenLine = switch game.status {
        case "waiting": ScreenLine("  Waiting for a second player: parlor tictactoe join \(game.code)", .dim)
        case "won": ScreenLine("  \(game.winner == state.me ? "You win" : "\(state.name(of: game.winner) ?? "Somebody") wins")!", .good)
        case "draw": ScreenLine("  A draw.", .good)
        default: state.isMyTurn ? ScreenLine("  Your turn.", .highlight) : ScreenLine("  \(state.name(of: game.next) ?? "The other player") to play.")
        }
        var lines = [players, line]
        if let rematch = game.rematchCode { lines.append(ScreenLine("  The rematch is game \(rematch).", .dim)) }
        return lines
    }

    /// Three rows of cells with rules between them: `  X │ 2 │ O`.
    static func board(_ state: TicTacToeScreenState, _ game: TicTacToeView) -> [ScreenLine] {
        let winning = Set(game.line ?? [])
        let playing = game.status == "playing" && state.mySeat != nil
        var lines: [ScreenLine] = []
        for row in 0..<3 {
            var line = ScreenLine("      ")
            for column in 0..<3 {
                let cell = row * 3 + column
                let mark = game.board[cell]
                let style: TextStyle = winning.contains(cell) ? .good : playing && cell == state.cursor ? .highlight : mark.isEmpty ? .dim : .bold
                line.append(" \(mark.isEmpty ? String(cell + 1) : mark) ", style)
                if column < 2 { line.append("│") }
            }
            lines.append(line)
            if row < 2 { lines.append(ScreenLine("      ───┼───┼───")) }
        }
        return lines
    }

    static func keys(_ state: TicTacToeScreenState) -> [(key: String, label: String)] {
        var keys: [(key: String, label: String)] = []
        if let game = state.game, state.mySeat != nil {
            if game.status == "playing" && state.isMyTurn { keys.append(("1-9", "mark")) }
            if (game.status == "won" || game.status == "draw") && game.rematchCode == nil { keys.append(("r", "rematch")) }
            keys.append(("l", "leave"))
            if state.mayKick { keys.append(("/kick NAME", "remove")) }
        }
        keys.append(("?", "keys"))
        keys.append(("q", "quit"))
        return keys
    }
}
