import ParlorRules
import ParlorWire

/// The lobby's players: a table with colour, emoji, name, running score and (during a round) how many
/// words each has submitted, or the same folded into one line for a short terminal.
enum LobbyPlayersSection {
    /// Columns before the name: indent, swatch, space, emoji (two columns), space.
    static let nameColumn = 7
    static let scoreWidth = 6

    static func table(_ state: LobbyScreenState, width: Int) -> [ScreenLine] {
        guard let lobby = state.lobby, !state.deleted else { return [] }
        let inRound = state.round != nil
        let labels = lobby.players.map { label($0, state: state) }
        let natural = min(max(labels.map { TextWidth.of($0) }.max() ?? 0, 8), 30)
        let available = width - nameColumn - scoreWidth - (inRound ? 11 : 0)
        let nameWidth = max(min(natural, available), 4)
        var header = ScreenLine(TextWidth.pad("  Players", to: nameColumn + nameWidth), .bold)
        header.append(TextWidth.pad("Score", to: scoreWidth, alignRight: true), .bold)
        var lines = [header]
        for (player, label) in zip(lobby.players, labels) {
            var line = ScreenLine("  ")
            // The colour swatch is the presence dot: hollow when the player is away.
            line.append(PresenceDot.symbol(player.userId, in: state.presence) ?? PlayerLook.swatch, PlayerLook.style(colorNumber: player.colorNumber))
            line.append(" \(PlayerLook.emoji(player.emojiNumber)) ")
            line.append(TextWidth.pad(label, to: nameWidth), player.userId == state.me ? .bold : .plain)
            line.append(TextWidth.pad(String(player.score), to: scoreWidth, alignRight: true))
            if inRound, let count = player.wordCount {
                line.append("   " + (count == 1 ? "1 word" : "\(count) words"), .dim)
            }
            lines.append(line)
        }
        return lines
    }

    /// "Players: 🦊 Ann ★ 3   🐼 Bo (you) 1", wrapped; each player in their colour.
    static func compact(_ state: LobbyScreenState, width: Int) -> [ScreenLine] {
        guard let lobby = state.lobby, !state.deleted else { return [] }
        let pieces = lobby.players.map { player in
            let dot = PresenceDot.symbol(player.userId, in: state.presence).map { "\($0) " } ?? ""
            return Span("\(dot)\(PlayerLook.emoji(player.emojiNumber)) \(label(player, state: state)) \(player.score)",
                        PlayerLook.style(colorNumber: player.colorNumber))
        }
        return TextWrap.flow([Span("Players:", .bold)] + pieces, indent: "  ", gap: 2, width: width)
    }

    /// "Ann ★ (you)": the creator starts the rounds.
    static func label(_ player: LobbyView.Player, state: LobbyScreenState) -> String {
        player.username + (player.isCreator ? " ★" : "") + (player.userId == state.me ? " (you)" : "")
    }
}
