import ParlorWire

/// The running round: the game's rule and instructions, then your own words with their verdicts.
enum LobbyRoundSection {
    static func section(
        _ state: LobbyScreenState, round: LobbyView.Round, width: Int, instructions: Bool
    ) -> LobbyScreen.Section {
        var lines: [ScreenLine] = [ScreenLine("  " + rule(round.game), .bold)]
        if instructions, !round.game.instructions.isEmpty {
            lines += TextWrap.lines(round.game.instructions, width: max(width - 4, 10)).map { ScreenLine("  " + $0, .dim) }
        }
        lines.append("")
        let words = state.myWords
        if words.isEmpty {
            lines.append(ScreenLine("  Your words: none yet. Type one and press Enter.", .bold))
            return LobbyScreen.Section(lines: lines)
        }
        let accepted = words.filter(\.accepted).count
        lines.append(ScreenLine("  Your words: \(accepted) of \(words.count) accepted", .bold))
        let list = words.map { word -> ScreenLine in
            guard !word.accepted else { return ScreenLine("  ✓ " + word.word, .good) }
            var line = ScreenLine("  ✗ " + word.word, .bad)
            if let reason = word.reason { line.append("  " + reason, .dim) }
            return line
        }
        return LobbyScreen.Section(lines: lines, list: list)
    }

    /// "Rule: words starting with B", "Category: Fruits", with "(capitals count)" when they do.
    static func rule(_ game: LobbyView.Game) -> String {
        let capitals = game.caseSensitive ? " (capitals count)" : ""
        switch game.type {
        case "word":
            let letter = game.targetLetter ?? "?"
            switch game.letterPosition {
            case "start": return "Rule: words starting with \(letter)\(capitals)"
            case "end": return "Rule: words ending in \(letter)\(capitals)"
            case "contains": return "Rule: words containing \(letter)\(capitals)"
            default: return "Rule: words with the letter \(letter)\(capitals)"
            }
        case "category":
            return "Category: \(game.name)\(capitals)"
        default:
            return "Game: \(game.name)"
        }
    }
}
