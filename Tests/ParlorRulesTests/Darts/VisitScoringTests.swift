import Testing
@testable import ParlorRules

/// One visit scored from a score: every kind of bust, each in and out rule, and the visits that cannot
/// have been thrown.
@Suite struct VisitScoringTests {
    static let doubleOut = X01Settings(gameType: .x501)
    static let straightOut = X01Settings(gameType: .x501, outRule: .straight)
    static let masterOut = X01Settings(gameType: .x501, outRule: .master)
    static let doubleIn = X01Settings(gameType: .x501, inRule: .double)
    static let masterIn = X01Settings(gameType: .x501, inRule: .master)

    @Test func anOrdinaryVisitTakesItsPointsOff() throws {
        let scored = try score("T20 T20 T20", from: 501)
        #expect(scored.total == 180 && scored.scored == 180 && scored.remainingAfter == 321)
        #expect(!scored.isBust && !scored.isCheckout && scored.dartsThrown == 3)
        let misses = try score("M 0 M", from: 40)
        #expect(misses.total == 0 && misses.remainingAfter == 40 && misses.dartsThrown == 3)
    }

    // MARK: Busts

    @Test func goingBelowZeroBusts() throws {
        for out in [Self.doubleOut, Self.straightOut, Self.masterOut] {
            let scored = try score("T20 T20", from: 100, out)
            #expect(scored.isBust && scored.remainingAfter == 100 && scored.scored == 0)
            #expect(scored.total == 120 && scored.dartsThrown == 2)
        }
    }

    @Test func leavingOneBustsUnderDoubleAndMasterOutButNotStraight() throws {
        let double = try score("S19 M M", from: 20, Self.doubleOut)
        #expect(double.isBust && double.remainingAfter == 20)
        let master = try score("T6 M M", from: 19, Self.masterOut)
        #expect(master.isBust && master.remainingAfter == 19)
        let straight = try score("S19 M M", from: 20, Self.straightOut)
        #expect(!straight.isBust && straight.remainingAfter == 1)
    }

    @Test func reachingZeroWithoutALegalFinishingDartBusts() throws {
        // A single or treble under double out, a single under master out, the outer bull under both.
        for (notation, remaining, settings) in [
            ("S20", 20, Self.doubleOut), ("T20", 60, Self.doubleOut), ("S20 S20", 40, Self.doubleOut), ("25", 25, Self.doubleOut),
            ("S20", 20, Self.masterOut), ("25", 25, Self.masterOut),
        ] {
            let scored = try score(notation, from: remaining, settings)
            #expect(scored.isBust && !scored.isCheckout && scored.remainingAfter == remaining, "\(notation) from \(remaining)")
        }
    }

    @Test func dartsAfterTheBustingDartAreThrownButCountNothing() throws {
        let scored = try score("T20 T20 S1", from: 100)
        #expect(scored.isBust && scored.total == 120 && scored.dartsThrown == 3 && scored.remainingAfter == 100)
    }

    // MARK: Checkouts

    @Test func eachOutRuleFinishesOnItsDarts() throws {
        #expect(try score("D16", from: 32, Self.doubleOut).isCheckout)
        #expect(try score("DB", from: 50, Self.doubleOut).isCheckout)
        #expect(try score("S20", from: 20, Self.straightOut).isCheckout)
        #expect(try score("25", from: 25, Self.straightOut).isCheckout)
        #expect(try score("T20", from: 60, Self.masterOut).isCheckout)
        #expect(try score("D10", from: 20, Self.masterOut).isCheckout)
        let finish = try score("T20 T19 D12", from: 141)
        #expect(finish.isCheckout && finish.remainingAfter == 0 && finish.scored == 141 && finish.dartsThrown == 3)
        let early = try score("D20", from: 40)
        #expect(early.isCheckout && early.dartsThrown == 1)
    }

    @Test func dartsAfterTheCheckoutDartAreRefused() {
        #expect(dartsError { _ = try score("D20 M", from: 40) } == .invalidDarts(
            reason: "D20 finished the leg; the darts after it (M) were not thrown."))
        #expect(dartsError { _ = try score("S10 D5 S1", from: 20) } == .invalidDarts(
            reason: "D5 finished the leg; the darts after it (S1) were not thrown."))
    }

    @Test func aShortVisitMustFinishOrBust() {
        #expect(dartsError { _ = try score("T20 T20", from: 501) } == .invalidDarts(
            reason: "A visit that neither finishes nor busts has 3 darts (got 2); enter M for a miss."))
        #expect(dartsError { _ = try score("S1", from: 501) } != nil)
    }

    // MARK: In rules

    @Test func doubleInScoresNothingBeforeTheFirstDouble() throws {
        let scored = try score("T20 D10 T20", from: 501, opened: false, Self.doubleIn)
        #expect(scored.total == 80 && scored.remainingAfter == 421 && scored.openedAfter && !scored.openedBefore)
        let closed = try score("T20 T20 S5", from: 501, opened: false, Self.doubleIn)
        #expect(closed.total == 0 && closed.remainingAfter == 501 && !closed.openedAfter)
        let bull = try score("M DB S20", from: 501, opened: false, Self.doubleIn)
        #expect(bull.total == 70 && bull.openedAfter)
        // Once open, every dart counts.
        #expect(try score("T20 S5 S1", from: 421, opened: true, Self.doubleIn).total == 66)
    }

    @Test func masterInOpensOnADoubleOrATreble() throws {
        let treble = try score("S20 T20 S20", from: 501, opened: false, Self.masterIn)
        #expect(treble.total == 80 && treble.openedAfter)
        let double = try score("25 D3 S1", from: 501, opened: false, Self.masterIn)
        #expect(double.total == 7 && double.openedAfter)
        let none = try score("S20 25 S1", from: 501, opened: false, Self.masterIn)
        #expect(none.total == 0 && !none.openedAfter)
    }

    // MARK: Totals

    @Test func aTotalCountsThreeDartsAndMayBust() throws {
        let scored = try Self.doubleOut.score(.total(100), from: 501, opened: true)
        #expect(scored.remainingAfter == 401 && scored.dartsThrown == 3 && !scored.isBust)
        let over = try Self.doubleOut.score(.total(60), from: 40, opened: true)
        #expect(over.isBust && over.remainingAfter == 40 && over.dartsThrown == 3 && over.scored == 0)
        let one = try Self.doubleOut.score(.total(39), from: 40, opened: true)
        #expect(one.isBust)
        #expect(try !Self.straightOut.score(.total(39), from: 40, opened: true).isBust)
    }

    @Test func aTotalCannotFinishALeg() {
        for settings in [Self.doubleOut, Self.straightOut, Self.masterOut] {
            #expect(dartsError { _ = try settings.score(.total(40), from: 40, opened: true) } == .invalidDarts(
                reason: "A visit that finishes the leg must name its darts (e.g. T20 T20 D20), not only its total."))
        }
    }

    @Test func aTotalBeforeADoubleInPlayerOpensIsRefusedUnlessNothingScored() throws {
        #expect(dartsError { _ = try Self.doubleIn.score(.total(60), from: 501, opened: false) } == .invalidDarts(
            reason: "Until the player has opened with a double, enter the visit's darts, not a total."))
        #expect(dartsError { _ = try Self.masterIn.score(.total(60), from: 501, opened: false) }?.message.contains("a double or treble") == true)
        #expect(try Self.doubleIn.score(.total(0), from: 501, opened: false).remainingAfter == 501)
    }
}
