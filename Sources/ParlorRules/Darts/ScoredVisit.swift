/// A visit as the rules scored it, from the score the player stood on before it.
public struct ScoredVisit: Sendable, Equatable, Codable {
    public let entry: VisitEntry
    public let remainingBefore: Int
    /// Whether the player had opened their scoring (double or master in) before the visit.
    public let openedBefore: Bool
    /// The points the darts counted: darts before the opening double, and after a dart that bust, count
    /// nothing. On a bust they are what was thrown; the score still goes back to `remainingBefore`.
    public let total: Int
    /// Three for a visit entered as a total.
    public let dartsThrown: Int
    public let isBust: Bool
    /// The visit ended the leg.
    public let isCheckout: Bool
    /// Whether the player has opened after the visit (a bust takes nothing with it, an opening neither).
    public let openedAfter: Bool

    /// The score after the visit: unchanged by a bust, zero after a checkout.
    public var remainingAfter: Int { isBust ? remainingBefore : remainingBefore - total }

    /// The points the visit took off the score: zero for a bust.
    public var scored: Int { isBust ? 0 : total }
}

extension X01Settings {
    /// Scores `entry` for a player standing on `remaining` (`opened`: whether they have opened). Throws,
    /// naming the problem, for a visit that cannot have been thrown: darts after the checkout dart, fewer
    /// than three darts that neither finish nor bust, a total that would finish the leg (a finish names
    /// its darts) or a total before a double-in player has opened.
    public func score(_ entry: VisitEntry, from remaining: Int, opened: Bool) throws(DartsError) -> ScoredVisit {
        switch entry {
        case .darts(let darts):
            return try score(darts: darts, entry: entry, from: remaining, opened: opened)
        case .total(let total):
            guard opened || total == 0 else {
                let opening = inRule == .master ? "a double or treble" : "a double"
                throw .invalidDarts(reason: "Until the player has opened with \(opening), enter the visit's darts, not a total.")
            }
            let left = remaining - total
            guard left != 0 else {
                throw .invalidDarts(reason: "A visit that finishes the leg must name its darts (e.g. T20 T20 D20), not only its total.")
            }
            return ScoredVisit(
                entry: entry, remainingBefore: remaining, openedBefore: opened, total: total, dartsThrown: DartsLimits.dartsPerVisit,
                isBust: left < 0 || outRule.isDeadEnd(left), isCheckout: false, openedAfter: opened)
        }
    }

    private func score(darts: [Dart], entry: VisitEntry, from remaining: Int, opened: Bool) throws(DartsError) -> ScoredVisit {
        var left = remaining
        var isOpen = opened
        var counted = 0
        for (index, dart) in darts.enumerated() {
            if !isOpen {
                guard dart != .miss, inRule.opens(with: dart) else { continue }
                isOpen = true
            }
            counted += dart.points
            left -= dart.points
            if left == 0 && outRule.finishes(with: dart) {
                guard index == darts.count - 1 else {
                    let after = darts[(index + 1)...].map(\.notation).joined(separator: " ")
                    throw .invalidDarts(reason: "\(dart) finished the leg; the darts after it (\(after)) were not thrown.")
                }
                return ScoredVisit(
                    entry: entry, remainingBefore: remaining, openedBefore: opened, total: counted, dartsThrown: darts.count,
                    isBust: false, isCheckout: true, openedAfter: true)
            }
            if left <= 0 || outRule.isDeadEnd(left) {
                // A bust ends the visit: darts after it are thrown but count nothing.
                return ScoredVisit(
                    entry: entry, remainingBefore: remaining, openedBefore: opened, total: counted, dartsThrown: darts.count,
                    isBust: true, isCheckout: false, openedAfter: opened)
            }
        }
        guard darts.count == DartsLimits.dartsPerVisit else {
            throw .invalidDarts(reason: "A visit that neither finishes nor busts has \(DartsLimits.dartsPerVisit) darts (got \(darts.count)); enter M for a miss.")
        }
        return ScoredVisit(
            entry: entry, remainingBefore: remaining, openedBefore: opened, total: counted, dartsThrown: darts.count,
            isBust: false, isCheckout: false, openedAfter: isOpen)
    }
}
