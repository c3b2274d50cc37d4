/// One player's statistics over some visits — a leg, or the whole match (docs/PROTOCOL.md defines each):
///
/// - 3-dart average: points scored ÷ darts thrown × 3. A bust scores 0 but its darts count; a visit
///   entered as a total counts three darts; a checkout counts only the darts it took.
/// - First-9 average: the same over each leg's first three visits of the player.
/// - Checkout %: checkouts ÷ visits that began on a score the player could finish with three darts
///   (under the out rule, having opened), × 100.
/// - Highest checkout: the largest score finished in one visit.
/// - 180s, 140+ (140–179), 100+ (100–139): visits, busts excluded, scoring in that band.
/// - Darts thrown; legs won.
///
/// Averages and the percentage are rounded to two decimals; with nothing to divide by they are 0.
public struct DartsStatistics: Sendable, Equatable {
    public private(set) var points = 0
    public private(set) var dartsThrown = 0
    public private(set) var firstNinePoints = 0
    public private(set) var firstNineDarts = 0
    public private(set) var checkouts = 0
    /// Visits that began on a finishable score.
    public private(set) var checkoutChances = 0
    public private(set) var highestCheckout = 0
    public private(set) var count180 = 0
    public private(set) var count140Plus = 0
    public private(set) var count100Plus = 0
    public private(set) var legsWon = 0

    public init() {}

    public var threeDartAverage: Double { Self.rounded(ratio(points, dartsThrown) * 3) }
    public var firstNineAverage: Double { Self.rounded(ratio(firstNinePoints, firstNineDarts) * 3) }
    public var checkoutPercent: Double { Self.rounded(ratio(checkouts, checkoutChances) * 100) }

    /// `seat`'s statistics in `leg`.
    public static func leg(_ leg: DartsLeg, seat: Int, outRule: OutRule) -> DartsStatistics {
        var statistics = DartsStatistics()
        statistics.add(leg, seat: seat, outRule: outRule)
        return statistics
    }

    /// `seat`'s statistics over every leg of `match`.
    public static func match(_ match: DartsMatch, seat: Int) -> DartsStatistics {
        var statistics = DartsStatistics()
        for leg in match.legs { statistics.add(leg, seat: seat, outRule: match.settings.outRule) }
        return statistics
    }

    private mutating func add(_ leg: DartsLeg, seat: Int, outRule: OutRule) {
        var visitsInLeg = 0
        for visit in leg.visits where visit.player == seat {
            visitsInLeg += 1
            add(visit.scored, isFirstNine: visitsInLeg <= 3, outRule: outRule)
        }
        if leg.winner == seat { legsWon += 1 }
    }

    private mutating func add(_ visit: ScoredVisit, isFirstNine: Bool, outRule: OutRule) {
        let scored = visit.scored
        points += scored
        dartsThrown += visit.dartsThrown
        if isFirstNine {
            firstNinePoints += scored
            firstNineDarts += visit.dartsThrown
        }
        if visit.openedBefore && CheckoutTable.standard.isFinishable(visit.remainingBefore, outRule: outRule) {
            checkoutChances += 1
        }
        if visit.isCheckout {
            checkouts += 1
            highestCheckout = max(highestCheckout, visit.remainingBefore)
        }
        switch scored {
        case 180: count180 += 1
        case 140..<180: count140Plus += 1
        case 100..<140: count100Plus += 1
        default: break
        }
    }

    private func ratio(_ numerator: Int, _ denominator: Int) -> Double {
        denominator == 0 ? 0 : Double(numerator) / Double(denominator)
    }

    /// Two decimals, so every client shows the same figure.
    static func rounded(_ value: Double) -> Double {
        (value * 100).rounded() / 100
    }
}
