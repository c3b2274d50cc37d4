import Testing
@testable import ParlorRules

func dartsError(_ body: () throws -> Void) -> DartsError? {
    do {
        try body()
        return nil
    } catch {
        return error as? DartsError
    }
}

/// Darts from notation; a typo in a test is a failed test, not a crash.
func darts(_ notation: String) -> [Dart] {
    notation.split(separator: " ").map { text in
        guard let dart = Dart(notation: String(text)) else {
            Issue.record("\(text) is not a dart")
            return .miss
        }
        return dart
    }
}

func visit(_ notation: String) -> VisitInput { VisitInput(darts: notation.split(separator: " ").map(String.init)) }
func visit(total: Int) -> VisitInput { VisitInput(total: total) }

/// Scores `notation` from `remaining` under `settings`.
func score(
    _ notation: String, from remaining: Int, opened: Bool = true, _ settings: X01Settings = X01Settings(gameType: .x501)
) throws -> ScoredVisit {
    try settings.score(.darts(darts(notation)), from: remaining, opened: opened)
}

extension DartsMatch {
    /// A started match of `names` (the first, user(1), hosts; the rest are user(2), user(3), …).
    static func started(_ settings: X01Settings, players count: Int = 2) throws -> DartsMatch {
        var match = try DartsMatch.create(
            id: "match-1", code: MatchCode(uncheckedRawValue: "ACDEF"), settings: settings, host: user(1), playerName: "Ann",
            at: t0)
        let names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
        for seat in 1..<count { _ = try match.apply(.join(playerName: names[seat]), by: user(seat + 1), at: t0) }
        _ = try match.apply(.start, by: user(1), at: t0)
        return match
    }

    /// Records `notation` for the seat to throw, entered by that seat's player.
    @discardableResult
    mutating func throwVisit(_ input: VisitInput, at now: Instant = t0) throws -> [DartsEvent] {
        guard let seat = currentPlayer else { throw DartsError.invalidState(reason: "nobody's turn") }
        let id = players[seat].id
        return try apply(.recordVisit(playerId: id, visit: input), by: players[seat].isGuest ? hostId : id, at: now)
    }

    @discardableResult
    mutating func throwVisit(_ notation: String, at now: Instant = t0) throws -> [DartsEvent] {
        try throwVisit(visit(notation), at: now)
    }
}
