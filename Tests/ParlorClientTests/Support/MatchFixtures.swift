import Foundation
import ParlorRules
@testable import ParlorTerminal
import ParlorWire

/// Darts matches for the terminal's tests, built with the real rules: Ann (host) and Bo, 501 double out.
enum MatchFixtures {
    static let ann = RoomFixtures.ann
    static let bo = UserID("00000000-0000-4000-8000-00000000000b")!
    static let gil = UserID("00000000-0000-4000-8000-00000000000c")!
    static let code = "QX7KM"

    static func waiting(guest: Bool = false) throws -> DartsMatch {
        var match = try DartsMatch.create(
            id: "match-1", code: MatchCode(parsing: code), settings: X01Settings(gameType: .x501), host: ann, playerName: "Ann",
            at: Instant(millisecondsSinceEpoch: 1_800_000_000_000))
        _ = try match.apply(.join(playerName: "Bo"), by: bo, at: .epoch)
        if guest { _ = try match.apply(.addGuest(name: "Gil", id: gil), by: ann, at: .epoch) }
        return match
    }

    /// Started, with these visits entered by the host for whoever was to throw.
    static func playing(_ visits: [String], guest: Bool = false) throws -> DartsMatch {
        var match = try waiting(guest: guest)
        _ = try match.apply(.start, by: ann, at: .epoch)
        for visit in visits {
            guard let seat = match.currentPlayer else { break }
            let input = visit.allSatisfy(\.isNumber) ? VisitInput(total: Int(visit)) : VisitInput(darts: visit.split(separator: " ").map(String.init))
            _ = try match.apply(.recordVisit(playerId: match.players[seat].id, visit: input), by: ann, at: .epoch)
        }
        return match
    }

    static func screen(_ match: DartsMatch, me: UserID = ann) -> MatchScreenState {
        var state = MatchScreenState(server: "ws://localhost:8080/ws", code: code, match: MatchView(match), me: me)
        state.connection = .connected(userId: me)
        return state
    }
}
