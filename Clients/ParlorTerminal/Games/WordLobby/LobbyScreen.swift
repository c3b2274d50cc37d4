import ParlorClient
import ParlorRules
import ParlorWire

/// Draws the word lobby screen as text: a pure function of the state and the terminal's size, so what a
/// person would see can be tested line by line.
///
/// From the top: a status bar, the lobby code in block letters, a summary (players, and the round with
/// its countdown or who starts the next one), the players with their colours, emoji and scores, then
/// the running round (rule, instructions, your words with verdicts) or the last round's results
/// (everybody's words and points). At the bottom: a message line, the line being typed, and the keys.
///
/// When the terminal is too short, the block code goes first, then the player table folds into one
/// line, then the instructions, then the blank lines; a long list of your words keeps its newest entries.
public enum LobbyScreen {
    /// Exactly `height` lines, none wider than `width` columns.
    public static func render(_ state: LobbyScreenState, width: Int, height: Int) -> [ScreenLine] {
        let width = max(width, 1)
        let height = max(height, 1)
        let bottom = [messageLine(state), inputLine(state, width: width), keysLine(state, width: width)]
        return ScreenLayout.compose(status: statusBar(state, width: width), bottom: bottom, width: width, height: height) { rows in
            body(state, width: width, rows: rows)
        }
    }

    /// The text only (what tests compare).
    public static func text(_ state: LobbyScreenState, width: Int, height: Int) -> [String] {
        render(state, width: width, height: height).map(\.text)
    }

    // MARK: Layout

    /// The part of the screen a section may shrink: `list` keeps its newest lines when rows run out.
    struct Section {
        var lines: [ScreenLine] = []
        var list: [ScreenLine] = []
        var count: Int { lines.count + list.count }
    }

    static func body(_ state: LobbyScreenState, width: Int, rows: Int) -> [ScreenLine] {
        let big = BlockFont.lines(state.code, width: width)
        let summary = summary(state).flatMap { DotWrap.lines($0, width: width) }
        let fullPlayers = LobbyPlayersSection.table(state, width: width)
        let compactPlayers = LobbyPlayersSection.compact(state, width: width)
        let fullSection = section(state, width: width, instructions: true)
        let shortSection = section(state, width: width, instructions: false)
        var tightSection = shortSection
        tightSection.lines.removeAll { $0.spans.isEmpty }
        let candidates: [(big: [ScreenLine], players: [ScreenLine], section: Section, spaced: Bool)] = [
            (big, fullPlayers, fullSection, true),
            ([], fullPlayers, fullSection, true),
            ([], compactPlayers, fullSection, true),
            ([], compactPlayers, shortSection, true),
            ([], compactPlayers, tightSection, false),
        ]
        func head(_ big: [ScreenLine], _ players: [ScreenLine], _ section: Section, spaced: Bool) -> [ScreenLine] {
            let gap: [ScreenLine] = spaced ? [""] : []
            var head = gap
            if !big.isEmpty { head += big + [""] }
            head += summary
            if !players.isEmpty { head += gap + players }
            if section.count > 0 { head += gap }
            return head
        }
        for candidate in candidates {
            let top = head(candidate.big, candidate.players, candidate.section, spaced: candidate.spaced)
            if top.count + candidate.section.count <= rows {
                return top + candidate.section.lines + candidate.section.list
            }
        }
        let last = candidates[candidates.count - 1]
        let top = head(last.big, last.players, last.section, spaced: last.spaced)
        let room = rows - top.count - last.section.lines.count
        return top + last.section.lines + newest(last.section.list, fitting: room)
    }

    /// The newest lines of `list` that fit in `rows`, after a line saying how many are hidden.
    static func newest(_ list: [ScreenLine], fitting rows: Int) -> [ScreenLine] {
        guard list.count > rows else { return list }
        guard rows > 1 else { return [] }
        let shown = rows - 1
        let hidden = list.count - shown
        return [ScreenLine("  … \(hidden) earlier", .dim)] + list.suffix(shown)
    }

    static func section(_ state: LobbyScreenState, width: Int, instructions: Bool) -> Section {
        guard let lobby = state.lobby, !state.deleted else { return Section() }
        if let round = state.round {
            return LobbyRoundSection.section(state, round: round, width: width, instructions: instructions)
        }
        if let results = lobby.lastRound {
            return Section(lines: LobbyResultsSection.lines(state, results: results, width: width))
        }
        return Section()
    }

    // MARK: Parts

    static func statusBar(_ state: LobbyScreenState, width: Int) -> ScreenLine {
        StatusBar.line(server: state.server, connection: state.connection, version: state.lobby?.version, access: state.access, width: width)
    }

    static func summary(_ state: LobbyScreenState) -> [ScreenLine] {
        guard let lobby = state.lobby else {
            return [
                ScreenLine("  Lobby \(state.code)"),
                ScreenLine(state.deleted ? "  This lobby was deleted." : "  Loading the lobby…", state.deleted ? .bad : .dim),
            ]
        }
        let first = ScreenLine("  Lobby \(lobby.lobbyCode) · \(lobby.players.count) of \(lobby.capacity) players")
        var second = ScreenLine()
        if state.deleted {
            second.append("  This lobby was deleted.", .bad)
        } else if let round = state.round {
            // The countdown first: on a narrow terminal it is what must not be cut.
            let left = state.millisecondsLeft ?? 0
            second.append("  ")
            if left <= 0 {
                second.append("Time is up; scoring…", .warning)
            } else {
                second.append("\(Countdown.text(left)) left", Countdown.seconds(left) <= Countdown.hurrySeconds ? .warning : .bold)
            }
            let of = lobby.rounds.map { " of \($0)" } ?? ""
            second.append(" · Round \(round.number)\(of) · \(round.game.name)", .bold)
        } else if lobby.status == .finished {
            second.append("  Match over · " + winnersText(lobby, me: state.me), .bold)
        } else {
            let next = (lobby.lastRound?.number ?? 0) + 1
            let what = next == 1 ? "the first round" : "round \(next)"
            if state.isCreator {
                second.append("  You start \(what): type /start and press Enter.", .bold)
            } else {
                second.append("  Waiting for \(state.creatorName ?? "the creator") to start \(what).", .bold)
            }
        }
        return [first, second]
    }

    /// "Ann wins with 12 points", "You win with 12 points", "Ann and Bo tie with 8 points".
    static func winnersText(_ lobby: LobbyView, me: UserID?) -> String {
        let winners = lobby.winners ?? []
        let names = winners.map { id in id == me ? "you" : (lobby.players.first { $0.userId == id }?.username ?? "a player who left") }
        let points = lobby.players.first { winners.contains($0.userId) }?.score ?? 0
        switch names.count {
        case 0: return "nobody scored"
        case 1: return (names[0] == "you" ? "You win" : "\(names[0]) wins") + " with \(points) points"
        default: return names.dropLast().joined(separator: ", ") + " and \(names[names.count - 1]) tie with \(points) points"
        }
    }

    static func messageLine(_ state: LobbyScreenState) -> ScreenLine {
        guard let message = state.message else { return "" }
        return ScreenLine("  " + (message.isError ? "✗ " : "") + message.text, message.isError ? .bad : .plain)
    }

    static let prompt = "  > "

    /// What is being typed, its end in view when it is longer than the line.
    static func inputLine(_ state: LobbyScreenState, width: Int) -> ScreenLine {
        let room = width - TextWidth.of(prompt) - 1
        var shown = state.input
        if TextWidth.of(shown) > room, room > 1 {
            var tail = ""
            var used = 1
            for character in shown.reversed() {
                let columns = TextWidth.of(character)
                if used + columns > room { break }
                used += columns
                tail.insert(character, at: tail.startIndex)
            }
            shown = "…" + tail
        }
        var line = ScreenLine(prompt, .bold)
        line.append(shown)
        line.append("▏", .highlight)
        return line
    }

    static func keysLine(_ state: LobbyScreenState, width: Int = .max) -> ScreenLine {
        var keys: [(String, String)] = []
        if let lobby = state.lobby, state.myPlayer != nil, !state.deleted {
            if lobby.status == .game {
                keys.append(("Enter", "submit a word"))
            } else if state.isCreator, lobby.status == .finished {
                keys.append(("/rematch", "play again"))
            } else if state.isCreator, lobby.status == .open {
                keys.append(("/start", "next game"))
                keys.append(("/start ID", "that game"))
            }
            keys.append(("/leave", "leave"))
        }
        keys.append(("Esc", "quit"))
        return KeysLine.line(keys, width: width)
    }
}
