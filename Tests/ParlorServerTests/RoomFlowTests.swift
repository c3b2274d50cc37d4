import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// Rummy rooms over real sockets against the server on port 0.
@Suite struct RoomFlowTests {
    /// Creates a room as `host` and seats `guests`; returns the room code.
    static func seat(_ host: JSONConnection, _ guests: [JSONConnection], limit: Int = 100, capacity: Int = 4) async throws -> String {
        let created = try await host.call("createRoom", ["pointLimit": limit, "pointValue": 25, "playerCount": capacity, "playerName": "Ann"])
        let code = try #require((created.result?["room"] as? [String: Any])?["id"] as? String)
        for (index, guest) in guests.enumerated() {
            let joined = try await guest.call("joinRoom", ["code": code, "playerName": "Guest\(index)"])
            #expect(joined.result?["currentUserId"] as? String == guest.userId)
        }
        return code
    }

    @Test func aWholeGameFromCreateToSettlementWithAnObserver() async throws {
        try await withParlor { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    try await parlor.connect(signIn: false) { spectator in
                        let code = try await Self.seat(ann, [bo])
                        let observed = try await spectator.call("observeRoom", ["code": code])
                        let sub = try #require(observed.result?["subscription"] as? Int)
                        let first = try await spectator.nextEvent(sub: sub)
                        #expect(first["event"] as? String == "room")
                        #expect((first["data"] as? [String: Any])?["version"] as? Int == 2)

                        let ready = try await bo.call("setReady", ["roomCode": code, "playerId": bo.userId!, "ready": true])
                        #expect(ready.result?["version"] as? Int == 3)
                        let started = try await ann.call("startGame", ["roomCode": code])
                        #expect(started.result?["isStarted"] as? Bool == true)
                        #expect(started.result?["currentRound"] as? Int == 1)
                        #expect(((started.result?["players"] as? [[String: Any]])?.first?["scores"] as? [Int]) == [0, 0, 0, 0, 0, 0])

                        _ = try await ann.call("submitScore", ["roomCode": code, "playerId": ann.userId!, "round": 1, "score": 30])
                        _ = try await bo.call("submitScore", ["roomCode": code, "playerId": bo.userId!, "round": 1, "score": 60])
                        let round2 = try await ann.call("nextRound", ["roomCode": code])
                        #expect(round2.result?["currentRound"] as? Int == 2)
                        _ = try await ann.call("submitScore", ["roomCode": code, "playerId": ann.userId!, "round": 2, "score": 10])
                        // The moderator may enter a score for anyone.
                        _ = try await ann.call("submitScore", ["roomCode": code, "playerId": bo.userId!, "round": 2, "score": 45])
                        let finished = try #require(try await ann.call("nextRound", ["roomCode": code]).result)
                        #expect(finished["isFinished"] as? Bool == true)
                        let results = try #require(finished["results"] as? [String: Any])
                        #expect(results["winnerId"] as? String == ann.userId)
                        let debts = try #require(results["settlement"] as? [[String: Any]])
                        // Bo 105 − Ann 40 = 65 points × 25 cents.
                        #expect(debts.count == 1 && debts[0]["from"] as? String == bo.userId && debts[0]["amount"] as? Int == 1625)

                        // The spectator saw every version after the first, in order, ending on the finished room.
                        var seen: [Int] = [2]
                        while seen.last! < (finished["version"] as! Int) {
                            let event = try await spectator.nextEvent(sub: sub)
                            seen.append(try #require((event["data"] as? [String: Any])?["version"] as? Int))
                        }
                        #expect(seen == Array(2...(finished["version"] as! Int)))

                        // The finished game is in both players' history.
                        let history = try #require(try await bo.call("listGames").result)
                        let games = try #require(history["games"] as? [[String: Any]])
                        #expect(games.count == 1 && games[0]["roomCode"] as? String == code)
                    }
                }
            }
        }
    }

    @Test func moderatorHandOverKickAndDeletionEndStreams() async throws {
        try await withParlor { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    try await parlor.connect { cy in
                        let code = try await Self.seat(ann, [bo, cy])
                        let sub = try #require(try await cy.call("observeRoom", ["code": code]).result?["subscription"] as? Int)
                        _ = try await cy.nextEvent(sub: sub)
                        // Not the moderator: Bo cannot kick Cy.
                        let refused = try await bo.call("leaveRoom", ["roomCode": code, "playerId": cy.userId!])
                        #expect(refused.errorCode == "NOT_MODERATOR")
                        // The moderator leaves: Bo, the first remaining player, takes over and is ready.
                        let left = try await ann.call("leaveRoom", ["roomCode": code, "playerId": ann.userId!])
                        #expect(left["result"] is NSNull)
                        let after = try #require(try await cy.nextEvent(sub: sub)["data"] as? [String: Any])
                        let players = try #require(after["players"] as? [[String: Any]])
                        #expect(players.map { $0["id"] as? String } == [bo.userId, cy.userId])
                        #expect(players[0]["isModerator"] as? Bool == true && players[0]["isReady"] as? Bool == true)
                        // Bo kicks Cy, then leaves: the room is deleted and the stream ends with null, then end.
                        _ = try await bo.call("leaveRoom", ["roomCode": code, "playerId": cy.userId!])
                        _ = try await cy.nextEvent(sub: sub)
                        _ = try await bo.call("leaveRoom", ["roomCode": code, "playerId": bo.userId!])
                        let last = try await cy.nextEvent(sub: sub)
                        #expect(last["event"] as? String == "room" && last["data"] is NSNull)
                        let end = try await cy.nextEvent(sub: sub)
                        #expect(end["event"] as? String == "end" && end["data"] == nil)
                        #expect(try await cy.call("getRoom", ["code": code]).errorCode == "ROOM_NOT_FOUND")
                    }
                }
            }
        }
    }

    @Test func unsubscribeSendsEndBeforeTheReplyAndObservingTwiceSharesOneSubscription() async throws {
        try await withParlor { parlor in
            try await parlor.connect { ann in
                let code = try await Self.seat(ann, [])
                let first = try #require(try await ann.call("observeRoom", ["code": code]).result?["subscription"] as? Int)
                let second = try #require(try await ann.call("observeRoom", ["code": code]).result?["subscription"] as? Int)
                #expect(first == second)
                _ = try await ann.nextEvent(sub: first)
                try await ann.sendJSON(["id": 99, "op": "unsubscribe", "args": ["subscription": first]])
                let end = try await ann.nextEvent(sub: first)
                #expect(end["event"] as? String == "end")
                let reply = try await ann.reply(to: 99)
                #expect(reply["result"] is NSNull)
                #expect(try await ann.call("unsubscribe", ["subscription": first]).errorCode == "SUBSCRIPTION_NOT_FOUND")
            }
        }
    }

    @Test func aTokenResumesTheUserAndTheirSeat() async throws {
        try await withParlor { parlor in
            let (code, token, userId) = try await parlor.connect { ann in
                (try await Self.seat(ann, []), ann.token!, ann.userId!)
            }
            // A new connection presenting the token is the same user, still in the room.
            try await parlor.connect(token: token) { again in
                #expect(again.userId == userId)
                let rejoined = try await again.call("joinRoom", ["code": code, "playerName": "Someone else"])
                let players = try #require((rejoined.result?["room"] as? [String: Any])?["players"] as? [[String: Any]])
                #expect(players.count == 1 && players[0]["name"] as? String == "Ann" && players[0]["isModerator"] as? Bool == true)
            }
            // The token may also arrive in the upgrade request, either way.
            try await parlor.connect(signIn: false, headers: [("Authorization", "Bearer \(token)")]) { viaHeader in
                let room = try await viaHeader.call("startGame", ["roomCode": code])
                #expect(room.errorCode == "INVALID_STATE")  // signed in as the moderator; one player is too few
            }
            try await parlor.connect(signIn: false, path: "/ws?token=\(token)") { viaQuery in
                let hello = try await viaQuery.call("hello")
                #expect(hello.result?["userId"] as? String == userId && hello.result?["resumed"] as? Bool == true)
            }
            // An altered token is never accepted: hello starts a new user; in the upgrade it is refused.
            var altered = Array(token)
            altered[altered.count - 2] = altered[altered.count - 2] == "A" ? "B" : "A"
            try await parlor.connect(token: String(altered)) { stranger in
                #expect(stranger.userId != userId)
            }
            await #expect(throws: (any Error).self) {
                try await parlor.connect(signIn: false, headers: [("Authorization", "Bearer \(String(altered))")]) { _ in }
            }
        }
    }

    @Test func aTokenFromAnotherServerIsRefused() async throws {
        let foreign = try await withParlor { parlor in try await parlor.connect { $0.token! } }
        try await withParlor { parlor in
            try await parlor.connect(token: foreign) { connection in
                let hello = try await connection.call("hello", ["token": foreign])
                #expect(hello.result?["resumed"] as? Bool == false)
            }
        }
    }
}
