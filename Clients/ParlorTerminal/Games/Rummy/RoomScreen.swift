import ParlorClient
import ParlorRules
import ParlorWire

/// Draws the room screen as text: a pure function of the state and the terminal's size, so what a
/// person would see can be tested line by line.
///
/// From the top: a status bar (server, connection, version), the room code in block letters, a summary
/// line, then the players (before the start) or the score grid (from the start, the current round
/// highlighted) with standings and settlement once the game is over; at the bottom a message line and
/// the keys that work right now.
public enum RoomScreen {
    /// Exactly `height` lines, none wider than `width` columns.
    public static func render(_ state: RoomScreenState, width: Int, height: Int) -> [ScreenLine] {
        let width = max(width, 1)
        let height = max(height, 1)
        let header = statusBar(state, width: width)
        let bottom = [messageLine(state), keysLine(state, width: width)]
        let room = height - 1 - bottom.count
        var lines = [header] + body(state, width: width, rows: room).prefix(max(room, 0))
        while lines.count < height - bottom.count { lines.append("") }
        lines += bottom.suffix(max(height - lines.count, 0))
        return lines.prefix(height).map { $0.truncated(to: width) }
    }

    /// What lies between the status bar and the message line: the code in block letters when `rows`
    /// leave room for it, the summary, the players or the scores (also a replay's step).
    static func body(_ state: RoomScreenState, width: Int, rows: Int) -> [ScreenLine] {
        var body: [ScreenLine] = [""]
        let big = BlockFont.lines(state.code, width: width)
        body += summary(state, width: width)
        body.append("")
        body += section(state, width: width)
        if !big.isEmpty, big.count + 1 + body.count <= rows {
            body = [""] + big + body
        }
        return body
    }

    /// The text only (what tests compare).
    public static func text(_ state: RoomScreenState, width: Int, height: Int) -> [String] {
        render(state, width: width, height: height).map(\.text)
    }

    /// The room alone — code, summary, players or scores — without the status bar and the keys, as
    /// `parlor show` prints it.
    public static func printable(_ state: RoomScreenState, width: Int) -> [String] {
        let width = max(width, 1)
        return (BlockFont.lines(state.code, width: width) + [""] + summary(state, width: width) + [""] + section(state, width: width))
            .map { $0.truncated(to: width).text }
    }

    // MARK: Parts

    static func statusBar(_ state: RoomScreenState, width: Int) -> ScreenLine {
        StatusBar.line(server: state.server, connection: state.connection, version: state.room?.version, access: state.access, width: width)
    }

    static func summary(_ state: RoomScreenState, width: Int = .max) -> [ScreenLine] {
        guard let room = state.room else {
            return [ScreenLine("  Room \(state.code)"), ScreenLine(state.roomDeleted ? "  This room was deleted." : "  Loading the room…", .dim)]
        }
        let seats = "\(room.players.count) of \(room.playerCount) seats"
        var first = ScreenLine("  Room \(room.id) · to \(room.pointLimit) points · \(Money.perPoint(room.pointValue)) a point · \(seats)")
        if TextWidth.of(first.text) > width {
            first = ScreenLine("  \(room.id) · to \(room.pointLimit) · \(Money.perPoint(room.pointValue))/pt · \(room.players.count)/\(room.playerCount) seats")
        }
        var second = ScreenLine()
        if state.roomDeleted {
            second.append("  This room was deleted.", .bad)
        } else if room.isFinished {
            second.append("  Game over after round \(room.currentRound)", .bold)
        } else if room.isStarted {
            second.append("  Round \(room.currentRound) of \(RummyRules.roundCount)", .bold)
        } else {
            let ready = room.players.filter(\.isReady).count
            second.append("  Waiting to start: \(ready) of \(room.players.count) ready", .bold)
        }
        if state.me != nil, state.mySeat == nil, !state.roomDeleted {
            second.append(TextWidth.of(second.text) + 19 <= width ? " · you are watching" : " · watching", .dim)
        }
        return [first, second]
    }

    static func section(_ state: RoomScreenState, width: Int = .max) -> [ScreenLine] {
        guard let room = state.room else { return [] }
        guard room.isStarted else { return playerList(state, room) }
        var lines = scoreGrid(state, room, width: width)
        if room.isFinished, let results = room.results {
            lines.append("")
            lines += standings(room, results)
        }
        return lines
    }

    static func playerList(_ state: RoomScreenState, _ room: GameRoom) -> [ScreenLine] {
        let names = room.players.map { playerLabel($0, me: state.me) }
        let nameWidth = min(max(names.map { TextWidth.of($0) }.max() ?? 0, 6), 30)
        var lines: [ScreenLine] = [ScreenLine("  Players", .bold)]
        for (player, name) in zip(room.players, names) {
            var line = ScreenLine("  ")
            line.spans += PresenceDot.prefix(player.id, in: state.presence)
            line.append(TextWidth.pad(name, to: nameWidth) + "  ")
            if player.isReady { line.append("✓ ready", .good) } else { line.append("· not ready", .dim) }
            lines.append(line)
        }
        lines.append(ScreenLine("  ★ moderator   ✓ ready", .dim))
        return lines
    }

    static func scoreGrid(_ state: RoomScreenState, _ room: GameRoom, width: Int = .max) -> [ScreenLine] {
        let current = room.isFinished ? nil : room.currentRound
        let dots = state.presence == nil ? "" : "  "
        let layout = ScoreGridLayout(
            width: width, leading: 2 + dots.count, labels: room.players.map { playerLabel($0, me: state.me) },
            shortLabels: room.players.map { playerLabel($0, me: nil) }, current: room.currentRound)
        let names = room.players.map { playerLabel($0, me: layout.namesSayYou ? state.me : nil) }
        var header = ScreenLine("  " + dots + TextWidth.pad("Player", to: layout.nameWidth))
        for round in layout.rounds {
            let label = layout.label(round: round, isCurrent: round == current)
            header.append(TextWidth.pad(label, to: layout.cellWidth, alignRight: true), round == current ? .highlight : .bold)
        }
        header.append(TextWidth.pad("Total", to: layout.totalWidth, alignRight: true), .bold)
        var lines = [header]
        let selected = room.isFinished ? nil : state.selectedPlayer?.id
        for (player, name) in zip(room.players, names) {
            // Without " (you)", your own row is the one marked ▸ when nobody is selected.
            let marker = player.id == selected && state.mySeat != nil ? "▸ " : (!layout.namesSayYou && player.id == state.me ? "› " : "  ")
            var line = ScreenLine(marker)
            line.spans += PresenceDot.prefix(player.id, in: state.presence)
            line.append(TextWidth.pad(name, to: layout.nameWidth))
            for round in layout.rounds {
                // A round nobody has entered counts 0 but shows as not entered.
                let cell = round <= room.currentRound && player.hasEntered(round: round) ? String(player.scores[round - 1]) : "·"
                line.append(TextWidth.pad(cell, to: layout.cellWidth, alignRight: true), round == current ? .highlight : .plain)
            }
            let limitReached = player.totalScore >= room.pointLimit
            line.append(TextWidth.pad(String(player.totalScore), to: layout.totalWidth, alignRight: true), limitReached ? .bad : .bold)
            lines.append(line)
        }
        return lines
    }

    static func standings(_ room: GameRoom, _ results: GameRoom.Results) -> [ScreenLine] {
        let names = Dictionary(room.players.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        func name(_ id: UserID) -> String {
            names[id] ?? results.standings.first { $0.playerId == id }?.name ?? "someone who left"
        }
        var lines: [ScreenLine] = [ScreenLine("  Standings", .bold)]
        let nameWidth = min(max(results.standings.map { TextWidth.of($0.name) }.max() ?? 0, 6), 24)
        for standing in results.standings {
            var line = ScreenLine("  \(standing.rank). " + TextWidth.pad(standing.name, to: nameWidth))
            line.append(TextWidth.pad(String(standing.totalScore), to: 6, alignRight: true))
            if standing.playerId == results.winnerId { line.append("   winner", .good) }
            lines.append(line)
        }
        lines.append("")
        lines.append(ScreenLine("  Settlement", .bold))
        if results.settlement.isEmpty {
            lines.append("  Nobody owes anything.")
        }
        for debt in results.settlement {
            lines.append(ScreenLine("  \(name(debt.from)) pays \(name(debt.to)) \(Money.dollars(debt.amount))"))
        }
        return lines
    }

    static func messageLine(_ state: RoomScreenState) -> ScreenLine {
        switch state.mode {
        case .enteringScore(let player, let round, let digits):
            let name = state.room?.players.first { $0.id == player }?.name ?? "player"
            var line = ScreenLine("  Score for \(name), round \(round): ", .bold)
            line.append(digits + "▏", .highlight)
            line.append("  Enter submits · Esc cancels · ←/→ round", .dim)
            return line
        case .confirmingScore(let player, let round, let score):
            let name = state.room?.players.first { $0.id == player }?.name ?? "player"
            return ScreenLine("  Enter \(score) for \(name) in round \(round)? y enters it, any other key cancels.", .warning)
        case .confirmingLeave:
            return ScreenLine("  Leave room \(state.code)? Press y to leave, any other key to stay.", .warning)
        case .typingCommand(let text):
            var line = ScreenLine("  /", .bold)
            line.append(text + "▏", .highlight)
            line.append("  Enter runs · Esc cancels · /help", .dim)
            return line
        case .confirmingKick(let player):
            let name = state.room?.players.first { $0.id == player }?.name ?? "this player"
            return ScreenLine("  Remove \(name) from the room? Press y to remove, any other key to keep them.", .warning)
        case .normal:
            guard let message = state.message else { return "" }
            return ScreenLine("  " + (message.isError ? "✗ " : "") + message.text, message.isError ? .bad : .plain)
        }
    }

    static func keysLine(_ state: RoomScreenState, width: Int = .max) -> ScreenLine {
        var keys: [(String, String)] = []
        if let room = state.room, let seat = state.mySeat, !state.roomDeleted {
            if !room.isStarted {
                if seat.isModerator {
                    keys.append(("s", "start"))
                } else {
                    keys.append(("r", seat.isReady ? "not ready" : "ready"))
                }
            } else if !room.isFinished {
                if seat.isModerator { keys.append(("↑↓", "player")) }
                keys.append(("e", "enter score"))
                if seat.isModerator { keys.append(("n", room.currentRound >= RummyRules.roundCount ? "finish" : "next round")) }
            }
            // Listed while seats fill, where a line has room for it; x works during the game too.
            if seat.isModerator, room.players.count > 1, !room.isStarted { keys.append(("x", "remove")) }
            if seat.isModerator, room.isFinished { keys.append(("m", "rematch")) }
            if !room.isFinished { keys.append(("l", "leave")) }
        }
        keys.append(("?", "help"))
        keys.append(("q", "quit"))
        return KeysLine.line(keys, width: width)
    }

    // MARK: Helpers

    static func playerLabel(_ player: GameRoom.Player, me: UserID?) -> String {
        (player.isModerator ? "★ " : "  ") + player.name + (player.id == me ? " (you)" : "")
    }
}
