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
        var list = columns(words.map { $0.accepted ? Span("✓ " + $0.word, .good) : Span("✗ " + $0.word, .bad) }, width: width)
        // The newest word's reason, under the columns: the one the player is reading now.
        if let newest = words.last, !newest.accepted, let reason = newest.reason {
            list.append(ScreenLine("  " + reason, .dim))
        }
        return LobbyScreen.Section(lines: lines, list: list)
    }

    /// Words in columns of equal width, filled row by row so the newest are at the bottom (what a short
    /// screen keeps); one column on a narrow terminal.
    static func columns(_ cells: [Span], width: Int) -> [ScreenLine] {
        let gap = 2
        let cellWidth = max(min(cells.map { TextWidth.of($0.text) }.max() ?? 1, 24, width - 2), 1)
        let count = max(1, min(cells.count, (width - 2 + gap) / (cellWidth + gap)))
        return stride(from: 0, to: cells.count, by: count).map { start in
            var line = ScreenLine("  ")
            for (offset, cell) in cells[start..<min(start + count, cells.count)].enumerated() {
                if offset > 0 { line.append(String(repeating: " ", count: gap)) }
                let last = start + offset == cells.count - 1 || offset == count - 1
                line.append(last ? TextWidth.fit(cell.text, width: cellWidth) : TextWidth.pad(cell.text, to: cellWidth), cell.style)
            }
            return line
        }
    }

    /// "Rule: words starting with B", "Category: Fruits", with "(capitals count)" when they do.
    static func rule(_ game: LobbyView.Game) -> String {
        let capitals = game.caseSensitive ? " (capitals count)" : ""
        switch game.type {
        case "word":
            let letter = game.targetLetter ?? "?"
            switch game.letterPosition {
            case .start: return "Rule: words starting with \(letter)\(capitals)"
            case .end: return "Rule: words ending in \(letter)\(capitals)"
            case .contains: return "Rule: words containing \(letter)\(capitals)"
            case .unknown, nil: return "Rule: words with the letter \(letter)\(capitals)"
            }
        case "category":
            return "Category: \(game.name)\(capitals)"
        default:
            return "Game: \(game.name)"
        }
    }
}
