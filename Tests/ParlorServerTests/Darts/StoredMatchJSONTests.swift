import Foundation
import ParlorRules
import Testing
@testable import ParlorServer

@Suite struct StoredMatchJSONTests {
    /// Whatever state a match is in — waiting with a guest, played with darts and totals, busts, legs
    /// and sets won, finished, someone gone — the hand-written form decodes back to the same match with
    /// the ordinary decoder the store uses at start-up.
    @Test func roundTripsThroughTheOrdinaryDecoder() throws {
        let users = (1...3).map { UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000000\($0)")!) }
        let t0 = Instant(millisecondsSinceEpoch: 1_800_000_000_321)
        var match = try DartsMatch.create(
            id: "5d7c2d6e-0000-4000-8000-000000000001", code: MatchCode(parsing: "QX7KM"),
            settings: X01Settings(gameType: .x301, inRule: .double, outRule: .double, legs: 1, sets: 2, capacity: 3),
            host: users[0], playerName: #"A "quoted" \ name 🎯"#, at: t0)
        var states = [match]
        _ = try match.apply(.join(playerName: "Bo κ"), by: users[1], at: t0)
        _ = try match.apply(.addGuest(name: "Gil", id: users[2]), by: users[0], at: t0)
        states.append(match)
        _ = try match.apply(.start, by: users[0], at: t0.adding(seconds: 5))
        let visits: [(Int, VisitInput)] = [
            (0, VisitInput(darts: ["S20", "D20", "T20"])), (1, VisitInput(total: 0)), (2, VisitInput(darts: ["DB", "T20", "T20"])),
            (0, VisitInput(darts: ["T20", "T20", "D1"])), (1, VisitInput(darts: ["D10", "M", "M"])), (2, VisitInput(darts: ["T20", "T13", "D16"])),
            (1, VisitInput(darts: ["D20", "T20", "T20"])), (2, VisitInput(total: 0)),
        ]
        for (seat, input) in visits {
            _ = try match.apply(.recordVisit(playerId: match.players[seat].id, visit: input), by: users[0], at: t0)
            states.append(match)
        }
        _ = try match.apply(.leave, by: users[1], at: t0)
        states.append(match)
        for state in states {
            let decoded = try JSONDecoder().decode(DartsMatch.self, from: Data(StoredMatchJSON.encode(state).utf8))
            #expect(decoded == state)
        }
        #expect(match.legs.count == 2 && match.legs[0].winner == 2, "Gil won the first leg, and with it a set")
    }

    /// A finished match that names its rematch keeps the code through the store.
    @Test func theRematchCodeRoundTrips() throws {
        let ann = UserID(UUID(uuidString: "00000000-0000-4000-8000-000000000001")!)
        let t0 = Instant(millisecondsSinceEpoch: 1_800_000_000_321)
        var match = try DartsMatch.create(
            id: "5d7c2d6e-0000-4000-8000-000000000002", code: MatchCode(parsing: "QX7KM"), settings: X01Settings(gameType: .x301),
            host: ann, playerName: "Ann", at: t0)
        _ = try match.apply(.start, by: ann, at: t0)
        _ = try match.apply(.recordVisit(playerId: ann, visit: VisitInput(darts: ["T20", "T20", "T20"])), by: ann, at: t0)
        _ = try match.apply(.recordVisit(playerId: ann, visit: VisitInput(darts: ["T20", "T11", "D14"])), by: ann, at: t0)
        _ = try match.apply(DartsMatch.recordRematch(code: "4CWX9"), by: ann, at: t0)
        let decoded = try JSONDecoder().decode(DartsMatch.self, from: Data(StoredMatchJSON.encode(match).utf8))
        #expect(decoded == match && decoded.rematchCode == "4CWX9")
    }
}
