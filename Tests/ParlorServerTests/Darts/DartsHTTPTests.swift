import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// The darts operations' REST forms answer from the same handlers as the WebSocket.
@Suite struct DartsHTTPTests {
    @Test func aMatchPlayedOverHTTP() async throws {
        try await withParlor { parlor in
            func session() async throws -> (token: String, id: String) {
                let body = try #require(try await parlor.http("POST", "/session").1 as? [String: Any])
                return (try #require(body["token"] as? String), try #require(body["userId"] as? String))
            }
            let ann = try await session()
            let bo = try await session()
            let (createdStatus, created) = try await parlor.http(
                "POST", "/darts", body: ["gameType": "301", "outRule": "straight", "playerName": "Ann"], token: ann.token)
            #expect(createdStatus == 201)
            let code = try #require(((created as? [String: Any])?["match"] as? [String: Any])?["id"] as? String)
            let (joinStatus, joined) = try await parlor.http("POST", "/darts/\(code)/players", body: ["playerName": "Bo"], token: bo.token)
            #expect(joinStatus == 200 && (joined as? [String: Any])?["currentUserId"] as? String == bo.id)
            let (guestStatus, withGuest) = try await parlor.http("POST", "/darts/\(code)/guests", body: ["name": "Gil"], token: ann.token)
            #expect(guestStatus == 200)
            let gil = try #require(DartsWire.player(withGuest as? [String: Any], 2)?["id"] as? String)
            #expect(try await parlor.http("DELETE", "/darts/\(code)/players/\(gil)", token: ann.token).0 == 204)
            #expect(try await parlor.http("POST", "/darts/\(code)/start", token: ann.token).0 == 200)

            let (visitStatus, afterVisit) = try await parlor.http(
                "POST", "/darts/\(code)/visits", body: ["playerId": ann.id, "darts": ["T20", "T20", "T20"]], token: ann.token)
            #expect(visitStatus == 200 && DartsWire.player(afterVisit as? [String: Any], 0)?["remaining"] as? Int == 121)
            let (editStatus, edited) = try await parlor.http(
                "PUT", "/darts/\(code)/visits/last", body: ["visit": 1, "total": 140], token: ann.token)
            #expect(editStatus == 200 && DartsWire.player(edited as? [String: Any], 0)?["remaining"] as? Int == 161)
            _ = try await parlor.http("POST", "/darts/\(code)/visits", body: ["playerId": bo.id, "total": 0], token: bo.token)
            let (_, finished) = try await parlor.http(
                "POST", "/darts/\(code)/visits", body: ["playerId": ann.id, "darts": ["T20", "T20", "S41"]], token: ann.token)
            #expect(((finished as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "INVALID_DARTS")
            let (_, won) = try await parlor.http(
                "POST", "/darts/\(code)/visits", body: ["playerId": ann.id, "darts": ["T20", "T17", "DB"]], token: ann.token)
            #expect((won as? [String: Any])?["status"] as? String == "finished")

            let (getStatus, match) = try await parlor.http("GET", "/darts/\(code)")
            #expect(getStatus == 200 && (match as? [String: Any])?["winnerId"] as? String == ann.id)
            let (historyStatus, history) = try await parlor.http("GET", "/users/\(bo.id)/matches?limit=5", token: bo.token)
            #expect(historyStatus == 200 && ((history as? [String: Any])?["matches"] as? [Any])?.count == 1)
            #expect(try await parlor.http("GET", "/users/\(ann.id)/matches", token: bo.token).0 == 403)
            #expect(try await parlor.http("GET", "/users/nobody/matches", token: bo.token).0 == 403)

            let (checkoutStatus, checkout) = try await parlor.http("GET", "/checkout?score=100&darts=2")
            #expect(checkoutStatus == 200 && (checkout as? [String: Any])?["darts"] as? [String] == ["T20", "D20"])
            #expect(try await parlor.http("GET", "/checkout?score=abc&darts=2").0 == 400)
            #expect(try await parlor.http("GET", "/checkout?score=100&darts=2&outRule=sideways").0 == 400)

            // Leaving over HTTP is deleting your own seat; the last one out ends the match.
            #expect(try await parlor.http("DELETE", "/darts/\(code)/players/\(bo.id)", token: bo.token).0 == 204)
            #expect(try await parlor.http("DELETE", "/darts/\(code)/players/\(ann.id)", token: ann.token).0 == 204)
            let (goneStatus, gone) = try await parlor.http("GET", "/darts/\(code)")
            #expect(goneStatus == 404 && ((gone as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "MATCH_NOT_FOUND")
            #expect(try await parlor.http("DELETE", "/darts/\(code)/players/nobody", token: ann.token).0 == 404)
            #expect(try await parlor.http("POST", "/darts", body: ["gameType": "301", "playerName": "Ann"]).0 == 401)
        }
    }
}
