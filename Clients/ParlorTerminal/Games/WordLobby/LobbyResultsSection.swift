import ParlorWire

/// The last round's results, once it is over: every player's points for the round and running total,
/// best total first, and their words — accepted ones with the points they scored (2 unique, 1 shared),
/// rejected ones struck out. After the match's last round they are the final results.
enum LobbyResultsSection {
    static func lines(_ state: LobbyScreenState, results: LobbyView.RoundResult, width: Int) -> [ScreenLine] {
        let final = state.lobby?.status == .finished
        let title = final ? "  Final results · round \(results.number) · \(results.gameName)" : "  Round \(results.number) results · \(results.gameName)"
        var lines: [ScreenLine] = [ScreenLine(title, .bold)]
        // Best total first, then this round's points; seat order among equals (a stable sort).
        let ranked = results.players.enumerated().sorted { a, b in
            (a.element.total, a.element.points, -a.offset) > (b.element.total, b.element.points, -b.offset)
        }.map(\.element)
        let seats = Dictionary(
            (state.lobby?.players ?? []).map { ($0.userId, $0) }, uniquingKeysWith: { first, _ in first })
        let labels = ranked.map { player in
            player.username + (seats[player.userId]?.isCreator == true ? " ★" : "") + (player.userId == state.me ? " (you)" : "")
        }
        let natural = min(max(labels.map { TextWidth.of($0) }.max() ?? 0, 8), 30)
        let nameWidth = max(min(natural, width - LobbyPlayersSection.nameColumn - 16), 4)
        let indent = String(repeating: " ", count: LobbyPlayersSection.nameColumn)
        for (player, label) in zip(ranked, labels) {
            var line = ScreenLine("  ")
            if let seat = seats[player.userId] {
                line.append(PlayerLook.swatch, PlayerLook.style(colorNumber: seat.colorNumber))
                line.append(" \(PlayerLook.emoji(seat.emojiNumber)) ")
            } else {
                line.append("     ")
            }
            line.append(TextWidth.pad(label, to: nameWidth), player.userId == state.me ? .bold : .plain)
            line.append(TextWidth.pad("+\(player.points)", to: 5, alignRight: true), .bold)
            line.append("   total \(player.total)")
            lines.append(line)
            guard !player.words.isEmpty else {
                lines.append(ScreenLine(indent + "no words", .dim))
                continue
            }
            let pieces = player.words.map { word in
                word.accepted ? Span("✓ \(word.word) +\(word.points)", .good) : Span("✗ \(word.word)", .dim)
            }
            lines += TextWrap.flow(pieces, indent: indent, width: width)
        }
        return lines
    }
}
