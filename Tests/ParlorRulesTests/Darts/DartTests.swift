import Testing
@testable import ParlorRules

/// The notation scorers write, what each dart scores, and the totals three darts cannot make.
@Suite struct DartTests {
    @Test func everyNotationReadsAsItsDart() {
        let cases: [(String, Dart)] = [
            ("S1", .single(1)), ("s20", .single(20)), ("7", .single(7)), ("20", .single(20)), (" d16 ", .double(16)),
            ("D1", .double(1)), ("T20", .treble(20)), ("t1", .treble(1)), ("25", .outerBull), ("S25", .outerBull),
            ("50", .bull), ("DB", .bull), ("db", .bull), ("D25", .bull), ("0", .miss), ("M", .miss), ("m", .miss),
        ]
        for (text, dart) in cases { #expect(Dart(notation: text) == dart, "\(text)") }
    }

    @Test func whatIsNotADartIsRefused() {
        for text in ["", "S0", "S21", "D21", "T25", "T0", "21", "24", "26", "X5", "DD", "S", "T", "007", "01", "+5", "-1", "S 5", "T٣", "１"] {
            #expect(Dart(notation: text) == nil, "\(text)")
        }
    }

    @Test func pointsAndCanonicalNotation() {
        #expect(Dart.treble(20).points == 60 && Dart.double(16).points == 32 && Dart.single(5).points == 5)
        #expect(Dart.bull.points == 50 && Dart.outerBull.points == 25 && Dart.miss.points == 0)
        #expect(Dart.scoring.count == 62 && Set(Dart.scoring).count == 62)
        for dart in Dart.scoring + [.miss] { #expect(Dart(notation: dart.notation) == dart) }
        #expect([Dart.single(3), .double(25), .single(25), .miss, .treble(19)].map(\.notation) == ["S3", "DB", "25", "M", "T19"])
    }

    @Test func theImpossibleTotalsAreExactlyTheKnownNine() {
        #expect(VisitEntry.impossibleTotals == [179, 178, 176, 175, 173, 172, 169, 166, 163])
    }

    @Test func aVisitReadsDartsOrATotalButNotBoth() throws {
        #expect(try VisitEntry(darts: ["T20", "5", "M"], total: nil) == .darts([.treble(20), .single(5), .miss]))
        #expect(try VisitEntry(darts: nil, total: 140) == .total(140))
        #expect(dartsError { _ = try VisitEntry(darts: ["T20"], total: 60) } == .invalidInput(
            field: "darts", reason: "Send either darts or total for a visit, not both and not neither."))
        #expect(dartsError { _ = try VisitEntry(darts: nil, total: nil) }.map { if case .invalidInput = $0 { true } else { false } } == true)
        #expect(dartsError { _ = try VisitEntry(darts: [], total: nil) } == .invalidDarts(reason: "A visit has 1 to 3 darts (got 0)."))
        #expect(dartsError { _ = try VisitEntry(darts: ["1", "2", "3", "4"], total: nil) } == .invalidDarts(reason: "A visit has 1 to 3 darts (got 4)."))
        let bad = dartsError { _ = try VisitEntry(darts: ["T20", "T21", "M"], total: nil) }
        #expect(bad?.message.hasPrefix("\"T21\" is not a dart") == true)
        let huge = dartsError { _ = try VisitEntry(darts: [String(repeating: "X", count: 5000)], total: nil) }
        #expect((huge?.message.count ?? 0) < 200)
        #expect(dartsError { _ = try VisitEntry(darts: nil, total: 179) } == .invalidDarts(reason: "179 cannot be scored with three darts."))
        #expect(dartsError { _ = try VisitEntry(darts: nil, total: 181) } == .invalidDarts(reason: "A visit's total is between 0 and 180 (got 181)."))
        #expect(dartsError { _ = try VisitEntry(darts: nil, total: -1) } != nil)
        for total in 0...180 where !VisitEntry.impossibleTotals.contains(total) {
            #expect(try VisitEntry(darts: nil, total: total) == .total(total))
        }
    }
}
