import ParlorClient
import ParlorWire

/// Draws the darts scoreboard as text: a pure function of the state and the terminal's size, so what a
/// person would see can be tested line by line.
///
/// From the top: a status bar, the match code in block letters while players gather, a summary (the
/// game and its rules; then whose throw it is, or who won), and a card per player (`MatchPlayerCard`)
/// side by side as the width allows. At the bottom: a message line, the line being typed (a visit for
/// the player to throw, or the replacement of the last one) and the keys. When the cards do not fit,
/// each player folds into one line.
public enum MatchScreen {
    /// Exactly `height` lines, none wider than `width` columns.
    public static func render(_ state: MatchScreenState, width: Int, height: Int) -> [ScreenLine] {
        let width = max(width, 1)
        let height = max(height, 1)
        let status = StatusBar.line(server: state.server, connection: state.connection, version: state.match?.version, access: state.access, width: width)
        let bottom = [messageLine(state), inputLine(state, width: width), keysLine(state, width: width)]
        return ScreenLayout.compose(status: status, bottom: bottom, width: width, height: height) { rows in
            body(state, width: width, rows: rows)
        }
    }

    /// The text only (what tests compare).
    public static func text(_ state: MatchScreenState, width: Int, height: Int) -> [String] {
        render(state, width: width, height: height).map(\.text)
    }

    // MARK: Layout

    static func body(_ state: MatchScreenState, width: Int, rows: Int) -> [ScreenLine] {
        let summary: [ScreenLine] = [""] + summary(state).flatMap { (line: ScreenLine) -> [ScreenLine] in DotWrap.lines(line, width: width) }
        guard let match = state.match, !state.deleted else { return summary }
        let cards = cardRows(state, match, width: width)
        let compact = [""] + compactRows(state, match)
        let big = match.status == "waiting" ? BlockFont.lines(match.id, width: width) : []
        for candidate in [big.isEmpty ? [] : [""] + big, []] {
            let full = candidate + summary + cards
            if full.count <= rows { return full }
        }
        return summary + compact
    }

    static func cardRows(_ state: MatchScreenState, _ match: MatchView, width: Int) -> [ScreenLine] {
        let perRow = max(1, (width - 2) / MatchPlayerCard.width)
        var lines: [ScreenLine] = []
        var index = 0
        while index < match.players.count {
            let row = match.players[index..<min(index + perRow, match.players.count)]
            let cards = row.map { MatchPlayerCard.card($0, in: match, me: state.me, presence: state.presence) }
            lines.append("")
            for line in 0..<MatchPlayerCard.height {
                var joined = ScreenLine()
                for (column, card) in cards.enumerated() {
                    let cell = line < card.count ? card[line] : ScreenLine()
                    joined.spans += cell.spans
                    if column < cards.count - 1 { joined.append(String(repeating: " ", count: max(MatchPlayerCard.width - cell.width, 1))) }
                }
                lines.append(joined)
            }
            index += perRow
        }
        return lines
    }

    static func compactRows(_ state: MatchScreenState, _ match: MatchView) -> [ScreenLine] {
        let nameWidth = min(match.players.map { TextWidth.of(MatchPlayerCard.label($0, in: match, me: state.me)) }.max() ?? 0, 30)
        return match.players.map { MatchPlayerCard.compact($0, in: match, me: state.me, nameWidth: nameWidth, presence: state.presence) }
    }

    // MARK: Parts

    static func summary(_ state: MatchScreenState) -> [ScreenLine] {
        guard let match = state.match else {
            return [
                ScreenLine("  Match \(state.code)"),
                ScreenLine(state.deleted ? "  This match was deleted." : "  Loading the match…", state.deleted ? .bad : .dim),
            ]
        }
        var rules = "\(match.gameType) · \(match.inRule) in · \(match.outRule) out · first to \(match.legs) leg\(match.legs == 1 ? "" : "s")"
        if let sets = match.sets { rules += " a set, \(sets) set\(sets == 1 ? "" : "s")" }
        let first = ScreenLine("  Match \(match.id) · \(rules)")
        var second = ScreenLine("  ")
        if state.deleted {
            second.append("This match was deleted.", .bad)
        } else {
            switch match.status {
            case "waiting":
                let host = match.players.first { $0.id == match.hostId }?.name ?? "the host"
                let waiting = state.isHost ? "You start the match: type /start and press Enter." : "Waiting for \(host) to start."
                second.append("\(match.players.count) of \(match.capacity) players · " + waiting, .bold)
            case "playing":
                let thrower = state.thrower.map { $0.id == state.me ? "your throw" : "\($0.name) to throw" } ?? ""
                let set = match.sets == nil ? "" : "Set \(match.set) · "
                second.append("\(set)Leg \(match.leg) · \(thrower)", .bold)
            default:
                let winner = match.players.first { $0.id == match.winnerId }?.name ?? "Nobody"
                second.append("\(winner) wins the match!", .good)
                if let rematch = match.rematch { second.append(" · the rematch is match \(rematch)", .dim) }
            }
            if state.me != nil, state.mySeat == nil { second.append(" · you are watching", .dim) }
        }
        return [first, second]
    }

    static func messageLine(_ state: MatchScreenState) -> ScreenLine {
        guard let message = state.message else { return "" }
        return ScreenLine("  " + (message.isError ? "✗ " : "") + message.text, message.isError ? .bad : .plain)
    }

    static func inputLine(_ state: MatchScreenState, width: Int) -> ScreenLine {
        let prompt: String
        if let editing = state.editing {
            prompt = "  edit #\(editing) > "
        } else if state.entersVisits, let thrower = state.thrower {
            prompt = "  \(TextWidth.fit(thrower.name, width: 16)) > "
        } else {
            prompt = "  > "
        }
        var line = ScreenLine(prompt, .bold)
        line.append(TextWidth.fit(state.input, width: max(width - TextWidth.of(prompt) - 1, 1)))
        line.append("▏", .highlight)
        return line
    }

    static func keysLine(_ state: MatchScreenState, width: Int = .max) -> ScreenLine {
        var keys: [(String, String)] = []
        if let editing = state.editing {
            keys = [("Enter", "replace visit #\(editing)"), ("Esc", "keep it")]
            return KeysLine.line(keys, width: width)
        }
        if let match = state.match, !state.deleted {
            if state.entersVisits, let thrower = state.thrower {
                keys.append(("Enter", "record \(thrower.id == state.me ? "your" : thrower.name + "'s") visit"))
            }
            if match.status == "playing", let last = match.lastVisit, state.isHost || last.recordedBy == state.me {
                keys.append(("↑", "edit last visit"))
            }
            if match.status == "waiting", state.isHost {
                keys.append(("/start", "start"))
                keys.append(("/guest NAME", "add a guest"))
            }
            if match.status == "finished", match.rematch == nil, state.isHost { keys.append(("/rematch", "rematch")) }
            if state.mySeat != nil { keys.append(("/leave", "leave")) }
        }
        keys.append(("Esc", "quit"))
        return KeysLine.line(keys, width: width)
    }
}
