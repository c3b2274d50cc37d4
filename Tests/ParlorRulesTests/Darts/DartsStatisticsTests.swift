import Testing
@testable import ParlorRules

/// Statistics of a recorded, real-looking match, worked out by hand.
///
/// 501 double out, first to 2 legs, Ann and Bo.
///
/// Leg 1 (Ann starts)                         Leg 2 (Bo starts)
///   Ann            Bo                          Bo              Ann
///   T20 S20 S5 85  416   total 60    441       T20 T20 T20 180 321   total 45  456
///   T20 T20 S20 140 276  T19 T19 S19 133 308   T20 T20 T20 180 141   total 45  411
///   S20 S1 S20 41  235   T20 T20 T20 180 128   T20 T19 D12 141   0 (nine-darter)
///   total 100      135   total 26    102
///   T20 S20 T20 bust 135 T20 D20 M   100   2
///   T20 T15 S10 115 20   D1            2   0
///
/// Ann: 571 points in 24 darts; first nine 266 in 9 + 90 in 6; finishable starts 135 and 135.
/// Bo: 1002 points in 25 darts (16 + 9); first nine 373 in 9 + 501 in 9; finishable starts 128, 102,
/// 2 and 141, two of them checked out; his 141 finish is a 140+ visit.
@Suite struct DartsStatisticsTests {
    static func playedMatch() throws -> DartsMatch {
        var match = try DartsMatch.started(X01Settings(gameType: .x501, legs: 2))
        let leg1: [VisitInput] = [
            visit("T20 S20 S5"), visit(total: 60), visit("T20 T20 S20"), visit("T19 T19 S19"), visit("S20 S1 S20"), visit("T20 T20 T20"),
            visit(total: 100), visit(total: 26), visit("T20 S20 T20"), visit("T20 D20 M"), visit("T20 T15 S10"), visit("D1"),
        ]
        let leg2: [VisitInput] = [visit("T20 T20 T20"), visit(total: 45), visit("T20 T20 T20"), visit(total: 45), visit("T20 T19 D12")]
        for input in leg1 + leg2 { try match.throwVisit(input) }
        return match
    }

    @Test func theMatchIsAsRecorded() throws {
        let match = try Self.playedMatch()
        #expect(match.status == .finished && match.winner == 1 && match.legs.map(\.winner) == [1, 1])
        #expect(match.legs[0].visits.filter { $0.player == 0 }.map(\.scored.remainingAfter) == [416, 276, 235, 135, 135, 20])
        #expect(match.legs[0].visits.filter { $0.player == 1 }.map(\.scored.remainingAfter) == [441, 308, 128, 102, 2, 0])
        #expect(match.legs[1].starter == 1 && match.legs[1].visits.map(\.player) == [1, 0, 1, 0, 1])
    }

    @Test func matchStatistics() throws {
        let match = try Self.playedMatch()
        let ann = DartsStatistics.match(match, seat: 0)
        #expect(ann.points == 571 && ann.dartsThrown == 24)
        #expect(ann.threeDartAverage == 71.38)  // 571 / 24 × 3 = 71.375
        #expect(ann.firstNineAverage == 71.2)  // 356 / 15 × 3
        #expect(ann.checkoutChances == 2 && ann.checkouts == 0 && ann.checkoutPercent == 0)
        #expect(ann.highestCheckout == 0 && ann.count180 == 0 && ann.count140Plus == 1 && ann.count100Plus == 2)
        #expect(ann.legsWon == 0)

        let bo = DartsStatistics.match(match, seat: 1)
        #expect(bo.points == 1002 && bo.dartsThrown == 25)
        #expect(bo.threeDartAverage == 120.24)  // 1002 / 25 × 3
        #expect(bo.firstNineAverage == 145.67)  // 874 / 18 × 3 = 145.666…
        #expect(bo.checkoutChances == 4 && bo.checkouts == 2 && bo.checkoutPercent == 50)
        #expect(bo.highestCheckout == 141 && bo.count180 == 3 && bo.count140Plus == 1 && bo.count100Plus == 2)  // 141 is a 140+
        #expect(bo.legsWon == 2)
    }

    @Test func legStatistics() throws {
        let match = try Self.playedMatch()
        let annLeg1 = DartsStatistics.leg(match.legs[0], seat: 0, outRule: .double)
        #expect(annLeg1.threeDartAverage == 80.17)  // 481 / 18 × 3 = 80.166…
        #expect(annLeg1.firstNineAverage == 88.67)  // 266 / 9 × 3
        #expect(annLeg1.checkoutChances == 2 && annLeg1.checkoutPercent == 0)
        let boLeg1 = DartsStatistics.leg(match.legs[0], seat: 1, outRule: .double)
        #expect(boLeg1.threeDartAverage == 93.94)  // 501 / 16 × 3 = 93.9375
        #expect(boLeg1.firstNineAverage == 124.33)  // 373 / 9 × 3
        #expect(boLeg1.checkoutPercent == 33.33 && boLeg1.highestCheckout == 2 && boLeg1.count180 == 1 && boLeg1.legsWon == 1)
        let boLeg2 = DartsStatistics.leg(match.legs[1], seat: 1, outRule: .double)
        #expect(boLeg2.threeDartAverage == 167 && boLeg2.firstNineAverage == 167 && boLeg2.checkoutPercent == 100)
        #expect(boLeg2.highestCheckout == 141 && boLeg2.count180 == 2 && boLeg2.dartsThrown == 9)
        let annLeg2 = DartsStatistics.leg(match.legs[1], seat: 0, outRule: .double)
        #expect(annLeg2.threeDartAverage == 45 && annLeg2.firstNineAverage == 45 && annLeg2.dartsThrown == 6)
    }

    @Test func nothingThrownIsAllZeros() {
        let empty = DartsStatistics()
        #expect(empty.threeDartAverage == 0 && empty.firstNineAverage == 0 && empty.checkoutPercent == 0)
    }
}
