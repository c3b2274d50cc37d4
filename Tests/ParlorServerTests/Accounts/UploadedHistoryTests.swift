import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// `listHistory` files a darts match scored offline and uploaded beside the games the server ran: its id
/// stands for the code it never had, a guest has no user id, and the winner comes first with the legs
/// the uploaded turns give (0 without turns).
@Suite struct UploadedHistoryTests {
    @Test func anUploadedMatchIsInEveryAccountPlayersHistory() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let ann = try await parlor.member("ann", "Ann")
            let bo = try await parlor.member("bobo", "Bo")
            try await parlor.friends(ann, bo)
            let withTurns = Uploads.newID()
            let body = Uploads.match(
                id: withTurns, players: [["player_id": ann.id, "order": 0], ["order": 1, "name": "Gil"]], winner: ann.id,
                updatedAt: "2026-10-10T20:21:00Z", turns: Uploads.leg(["player_id": ann.id], ["order": 1]))
            #expect(try await parlor.http("POST", "/matches", body: body, token: ann.token).0 == 201)
            // A later one without turns, which Bo won: only the winner is known.
            let bare = Uploads.newID()
            let later = Uploads.match(
                id: bare, players: [["player_id": ann.id, "order": 0], ["player_id": bo.id, "order": 1]], winner: bo.id,
                updatedAt: "2026-10-11T20:21:00Z", startedAt: "2026-10-11T20:00:00Z", endedAt: "2026-10-11T20:20:00Z")
            #expect(try await parlor.http("POST", "/matches", body: later, token: bo.token).0 == 201)

            try await parlor.connect(token: ann.token) { connection in
                let reply = try await connection.call("listHistory")
                let games = try #require(reply.result?["games"] as? [[String: Any]], "\(reply)")
                #expect(games.map { $0["code"] as? String } == [bare, withTurns] && games.allSatisfy { $0["kind"] as? String == "darts" })
                #expect(games.map { $0["result"] as? String } == ["lost", "won"])
                #expect(games.map { $0["finishedAt"] as? String } == ["2026-10-11T20:20:00.000Z", "2026-10-10T20:20:00.000Z"])
                let offline = try #require(games.last?["players"] as? [[String: Any]])
                #expect(offline.map { $0["name"] as? String } == ["Ann", "Gil"] && offline.map { $0["rank"] as? Int } == [1, 2])
                #expect(offline.map { $0["points"] as? Int } == [1, 0] && offline[0]["userId"] as? String == ann.id && offline[1]["userId"] == nil)
                let bareOne = try #require(games.first?["players"] as? [[String: Any]])
                #expect(bareOne.map { $0["name"] as? String } == ["Bo", "Ann"] && bareOne.map { $0["points"] as? Int } == [0, 0])

                // Pages go on past uploads as past the server's games.
                let first = try await connection.call("listHistory", ["limit": 1])
                let next = try #require(first.result?["nextBefore"] as? String)
                let second = try await connection.call("listHistory", ["limit": 1, "before": next])
                #expect((second.result?["games"] as? [[String: Any]])?.map { $0["code"] as? String } == [withTurns])
            }
            try await parlor.connect(token: bo.token) { connection in
                let games = try #require(try await connection.call("listHistory").result?["games"] as? [[String: Any]])
                #expect(games.map { $0["code"] as? String } == [bare] && games.first?["result"] as? String == "won")
            }
        }
    }
}
