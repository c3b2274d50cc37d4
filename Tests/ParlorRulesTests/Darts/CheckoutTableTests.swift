import Testing
@testable import ParlorRules

/// The checkout table against a brute force, for every score from 0 to 200, 1 to 3 darts and every out
/// rule: each suggestion adds up, ends on a legal dart, never busts on the way, uses no more darts than
/// allowed and is as short as any finish; and every score some finish exists for has a suggestion.
@Suite struct CheckoutTableTests {
    let table = CheckoutTable.standard

    /// The fewest darts (up to `darts`) that finish `score` under `rule`, found without the table.
    static func shortestFinish(_ score: Int, darts: Int, _ rule: OutRule) -> Int? {
        let all = Dart.scoring
        if all.contains(where: { $0.points == score && rule.finishes(with: $0) }) { return 1 }
        guard darts >= 2 else { return nil }
        for first in all where first.points < score {
            if all.contains(where: { first.points + $0.points == score && rule.finishes(with: $0) }) { return 2 }
        }
        guard darts >= 3 else { return nil }
        for first in all where first.points < score {
            for second in all where first.points + second.points < score {
                if all.contains(where: { first.points + second.points + $0.points == score && rule.finishes(with: $0) }) { return 3 }
            }
        }
        return nil
    }

    @Test(arguments: OutRule.allCases)
    func everySuggestionIsALegalShortestFinishAndNoFinishableScoreLacksOne(_ rule: OutRule) throws {
        let settings = X01Settings(gameType: .x501, outRule: rule)
        for dartsLeft in 1...3 {
            for score in 0...200 {
                let suggestion = table.suggestion(for: score, darts: dartsLeft, outRule: rule)
                let shortest = score == 0 ? nil : Self.shortestFinish(score, darts: dartsLeft, rule)
                #expect(suggestion?.count == shortest, "\(rule) \(score) with \(dartsLeft) darts: \(String(describing: suggestion))")
                guard let suggestion else { continue }
                #expect(suggestion.count <= dartsLeft)
                #expect(suggestion.reduce(0) { $0 + $1.points } == score)
                #expect(suggestion.allSatisfy { $0 != .miss })
                // Played through the rules: a checkout on its last dart, never a bust on the way.
                let scored = try settings.score(.darts(suggestion), from: score, opened: true)
                #expect(scored.isCheckout, "\(rule) \(score): \(suggestion)")
            }
        }
    }

    @Test func doubleOutHasNoThreeDartFinishAbove170NorForTheBogeyNumbers() {
        let none = (1...180).filter { table.suggestion(for: $0, darts: 3, outRule: .double) == nil }
        #expect(none == [1, 159, 162, 163, 165, 166, 168, 169] + Array(171...180))
        #expect(table.suggestion(for: 1, darts: 3, outRule: .double) == nil)
        #expect(table.suggestion(for: 1, darts: 1, outRule: .straight) == [.single(1)])
        #expect(table.suggestion(for: 180, darts: 3, outRule: .straight) == darts("T20 T20 T20"))
        #expect(table.suggestion(for: 180, darts: 3, outRule: .master) == darts("T20 T20 T20"))
        #expect(table.suggestion(for: 181, darts: 3, outRule: .straight) == nil)
        #expect(table.suggestion(for: 40, darts: 0, outRule: .double) == nil)
        #expect(table.suggestion(for: 40, darts: 4, outRule: .double) == nil)
    }

    @Test func theSuggestionsAreTheOnesPlayersAimFor() {
        let expected: [(Int, Int, String)] = [
            (170, 3, "T20 T20 DB"), (167, 3, "T20 T19 DB"), (160, 3, "T20 T20 D20"), (121, 3, "T20 T7 D20"),
            (100, 3, "T20 D20"), (100, 2, "T20 D20"), (110, 2, "T20 DB"), (81, 3, "T19 D12"), (50, 1, "DB"), (50, 3, "DB"),
            (40, 1, "D20"), (32, 1, "D16"), (16, 1, "D8"), (60, 2, "S20 D20"), (61, 3, "T7 D20"), (2, 1, "D1"), (3, 2, "S1 D1"),
        ]
        for (score, dartsLeft, notation) in expected {
            #expect(table.suggestion(for: score, darts: dartsLeft, outRule: .double) == darts(notation), "\(score) with \(dartsLeft)")
        }
        #expect(table.suggestion(for: 110, darts: 1, outRule: .double) == nil)
        #expect(table.suggestion(for: 51, darts: 1, outRule: .double) == nil)
        // Straight out prefers a single; master out a double over a treble.
        #expect(table.suggestion(for: 6, darts: 1, outRule: .straight) == [.single(6)])
        #expect(table.suggestion(for: 6, darts: 1, outRule: .master) == [.double(3)])
        #expect(table.suggestion(for: 57, darts: 1, outRule: .master) == [.treble(19)])
        #expect(table.suggestion(for: 3, darts: 1, outRule: .double) == nil)
    }

    @Test func finishabilityIsThreeDartsOfTheRule() {
        #expect(table.isFinishable(170, outRule: .double) && !table.isFinishable(169, outRule: .double))
        #expect(table.isFinishable(179, outRule: .straight) == false && table.isFinishable(177, outRule: .straight))
        #expect(!table.isFinishable(0, outRule: .straight))
    }
}
