import ParlorRules
import ParlorWire

/// One player on the darts scoreboard: a card with the score left in block digits, legs and sets, the
/// averages, and under the player to throw the finish to aim for (or, for the others, their last visit);
/// or, when the screen is short, one line with the same facts.
enum MatchPlayerCard {
    /// Columns a card takes, its gap included: a three-digit score in block digits is 19.
    static let width = 27
    static let height = 10

    static func card(_ player: MatchView.Player, in match: MatchView, me: UserID?, presence: PresenceView? = nil) -> [ScreenLine] {
        let isThrower = match.currentPlayerId == player.id
        var name = ScreenLine(isThrower ? "▶ " : "  ", .bold)
        name.spans += PresenceDot.prefix(player.id, in: presence)
        name.append(label(player, in: match, me: me), isThrower ? .highlight : .bold)
        if match.winnerId == player.id { name.append(" ★ winner", .good) }
        var lines = [name]
        lines += BlockFont.render(String(player.remaining)).map { ScreenLine("  " + $0, isThrower ? .bold : .plain) }
        lines.append(ScreenLine("  " + legs(player, in: match)))
        lines.append(ScreenLine("  Avg \(MatchView.Stats.text(player.stats.threeDartAverage)) · 1st 9 \(MatchView.Stats.text(player.stats.firstNineAverage))", .dim))
        if isThrower, let checkout = match.checkout {
            lines.append(ScreenLine("  Out: " + checkout.joined(separator: " "), .warning))
        } else {
            lines.append(lastVisit(player).map { ScreenLine("  " + $0) } ?? "")
        }
        let stats = player.stats
        lines.append(ScreenLine("  180s \(stats.count180) · 140+ \(stats.count140Plus) · 100+ \(stats.count100Plus)", .dim))
        return lines
    }

    /// The same facts on one line: `▶ Ann (host)  121  legs 1  avg 93.94  out T20 T7 D20`.
    static func compact(
        _ player: MatchView.Player, in match: MatchView, me: UserID?, nameWidth: Int, presence: PresenceView? = nil
    ) -> ScreenLine {
        let isThrower = match.currentPlayerId == player.id
        var line = ScreenLine(isThrower ? "▶ " : "  ", .bold)
        line.spans += PresenceDot.prefix(player.id, in: presence)
        line.append(TextWidth.pad(label(player, in: match, me: me), to: nameWidth), isThrower ? .highlight : .plain)
        line.append(TextWidth.pad(String(player.remaining), to: 5, alignRight: true), .bold)
        line.append("  " + legs(player, in: match) + "  avg \(MatchView.Stats.text(player.stats.threeDartAverage))")
        if isThrower, let checkout = match.checkout {
            line.append("  out " + checkout.joined(separator: " "), .warning)
        } else if match.winnerId == player.id {
            line.append("  ★ winner", .good)
        }
        return line
    }

    static func label(_ player: MatchView.Player, in match: MatchView, me: UserID?) -> String {
        var notes: [String] = []
        if player.id == match.hostId { notes.append("host") }
        if player.isGuest { notes.append("guest") }
        if player.hasLeft { notes.append("left") }
        if player.id == me { notes.append("you") }
        let name = TextWidth.fit(player.name, width: 16)
        return notes.isEmpty ? name : "\(name) (\(notes.joined(separator: ", ")))"
    }

    static func legs(_ player: MatchView.Player, in match: MatchView) -> String {
        match.sets == nil ? "Legs \(player.legsWon)" : "Legs \(player.legsWon) · Sets \(player.setsWon)"
    }

    /// `Last: T20 T20 T20 = 180`, `Last: 100`, `Last: T20 T20 bust`.
    static func lastVisit(_ player: MatchView.Player) -> String? {
        guard let visit = player.visits.last else { return nil }
        let thrown = visit.darts?.joined(separator: " ")
        if visit.isBust { return "Last: " + (thrown.map { "\($0) " } ?? "\(visit.total) ") + "bust" }
        if visit.isCheckout { return "Last: " + (thrown ?? "") + " out!" }
        return "Last: " + (thrown.map { "\($0) = \(visit.total)" } ?? String(visit.total))
    }
}
