import Foundation
import ParlorRules
import ParlorTestSupport
import ParlorWire
import Testing
@testable import ParlorServer

/// One user cannot fill the server with games: live games per user are capped across every kind of
/// game, over HTTP and the WebSocket alike, and a place comes back when a game goes.
@Suite struct QuotaTests {
    static var room: [String: Any] { ["pointLimit": 150, "pointValue": 5, "playerCount": 2, "playerName": "Ann"] }

    static func signIn(_ parlor: ParlorHarness) async throws -> String {
        let (_, session) = try await parlor.http("POST", "/session")
        return try #require((session as? [String: Any])?["token"] as? String)
    }

    static func createRoom(_ parlor: ParlorHarness, token: String) async throws -> RawHTTP.Response {
        try await RawHTTP.exchange(
            port: parlor.port, method: "POST", path: "/rooms", body: try JSONSerialization.data(withJSONObject: room), token: token)
    }

    @Test func oneUserCreatingRoomsPastTheQuotaOverHTTP() async throws {
        try await withParlor(configure: { $0.limits.maxGamesPerUser = 3 }) { parlor in
            let token = try await Self.signIn(parlor)
            for _ in 0..<3 { #expect(try await Self.createRoom(parlor, token: token).status == 201) }
            for _ in 0..<5 {
                let refused = try await Self.createRoom(parlor, token: token)
                #expect(refused.status == 429)
                #expect(refused.headers["retry-after"] == "\(HTTPRoutes.quotaRetryAfterSeconds)")
                let error = try #require((refused.body as? [String: Any])?["error"] as? [String: Any])
                #expect(error["code"] as? String == "QUOTA_EXCEEDED")
                #expect(error["status"] as? String == "resource-exhausted")
                #expect(error["message"] as? String == "You already have 3 live games, the most one player may have at once; leave or finish one first.")
            }
            #expect(parlor.services.host(RummyGame.self).count == 3)
            // Someone else is not held back.
            #expect(try await Self.createRoom(parlor, token: try await Self.signIn(parlor)).status == 201)
        }
    }

    @Test func theQuotaSpansRoomsAndLobbiesOverTheWebSocketAndCallableFunctions() async throws {
        try await withParlor(configure: {
            LobbyFixture.configure(&$0)
            $0.limits.maxGamesPerUser = 3
        }) { parlor in
            try await parlor.connect { ann in
                _ = try await RoomFlowTests.seat(ann, [])
                _ = try await LobbyFixture.create(ann)
                let body = try JSONSerialization.data(withJSONObject: ["data": ["user": LobbyFixture.user("Ann")]])
                let callable = try await RawHTTP.exchange(
                    port: parlor.port, method: "POST", path: "/functions/createLobby", body: body, token: ann.token)
                #expect(callable.status == 200)

                let room = try await ann.call("createRoom", Self.room)
                #expect(room.errorCode == "QUOTA_EXCEEDED" && room.errorStatus == "resource-exhausted")
                #expect(try await ann.call("createLobby", ["user": LobbyFixture.user("Ann")]).errorCode == "QUOTA_EXCEEDED")
                let refused = try await RawHTTP.exchange(
                    port: parlor.port, method: "POST", path: "/functions/createLobby", body: body, token: ann.token)
                #expect(refused.status == 429 && refused.headers["retry-after"] != nil)
                let error = try #require((refused.body as? [String: Any])?["error"] as? [String: Any])
                #expect(error["status"] as? String == "RESOURCE_EXHAUSTED")
                #expect((error["details"] as? [String: Any])?["code"] as? String == "QUOTA_EXCEEDED")
                #expect(parlor.services.host(RummyGame.self).count == 1 && parlor.services.host(WordLobbyGame.self).count == 2)
                #expect(parlor.services.quota.count(of: try #require(ann.userId.flatMap(UserID.init))) == 3)
            }
        }
    }

    @Test func placesComeBackWhenGamesAreLeftFinishedOrHandedOn() async throws {
        try await withParlor(configure: {
            LobbyFixture.configure(&$0)
            $0.limits.maxGamesPerUser = 2
        }) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let annID = try #require(ann.userId.flatMap(UserID.init))
                    // Leaving deletes a game whose last player leaves: its place comes back at once.
                    let lonely = try await RoomFlowTests.seat(ann, [])
                    let lobby = try await LobbyFixture.create(ann)
                    #expect(try await ann.call("createRoom", Self.room).errorCode == "QUOTA_EXCEEDED")
                    _ = try await ann.call("leaveRoom", ["roomCode": lonely, "playerId": ann.userId!])
                    #expect(parlor.services.quota.count(of: annID) == 1)

                    // A finished game no longer counts.
                    let played = try await RoomFlowTests.seat(ann, [bo], limit: 100, capacity: 2)
                    #expect(try await ann.call("createRoom", Self.room).errorCode == "QUOTA_EXCEEDED")
                    _ = try await bo.call("setReady", ["roomCode": played, "playerId": bo.userId!, "ready": true])
                    _ = try await ann.call("startGame", ["roomCode": played])
                    _ = try await ann.call("submitScore", ["roomCode": played, "playerId": ann.userId!, "round": 1, "score": 10])
                    _ = try await ann.call("submitScore", ["roomCode": played, "playerId": bo.userId!, "round": 1, "score": 120])
                    #expect(try await ann.call("nextRound", ["roomCode": played]).result?["isFinished"] as? Bool == true)
                    let third = try await ann.call("createRoom", Self.room)
                    #expect(third.result != nil, "\(third)")

                    // A lobby its creator leaves passes to the next player, and counts for them, not her.
                    _ = try await bo.call("joinLobby", ["lobbyCode": lobby.code, "user": LobbyFixture.user("Bo")])
                    _ = try await ann.call("leaveLobby", ["lobbyId": lobby.id])
                    #expect(try await ann.call("createLobby", ["user": LobbyFixture.user("Ann")]).result != nil)
                    #expect(try await ann.call("createRoom", Self.room).errorCode == "QUOTA_EXCEEDED")
                }
            }
        }
    }

    @Test func restoredGamesCountForTheirCreators() async throws {
        let store = InMemoryStore()
        let configure: (inout ServerConfiguration) -> Void = { $0.limits.maxGamesPerUser = 2 }
        let token = try await withParlor(store: store, configure: configure) { parlor in
            let token = try await Self.signIn(parlor)
            for _ in 0..<2 { #expect(try await Self.createRoom(parlor, token: token).status == 201) }
            return token
        }
        try await withParlor(store: store, configure: configure) { parlor in
            #expect(parlor.services.host(RummyGame.self).count == 2)
            let refused = try await Self.createRoom(parlor, token: token)
            #expect(refused.status == 429)
            #expect(((refused.body as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "QUOTA_EXCEEDED")
        }
    }

    @Test func concurrentCreationsCannotSlipPastTheQuota() async throws {
        try await withParlor(configure: { $0.limits.maxGamesPerUser = 4 }) { parlor in
            let token = try await Self.signIn(parlor)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<16 { group.addTask { try await Self.createRoom(parlor, token: token).status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 201 }.count == 4)
            #expect(statuses.filter { $0 == 429 }.count == 12)
            #expect(parlor.services.host(RummyGame.self).count == 4)
        }
    }
}
