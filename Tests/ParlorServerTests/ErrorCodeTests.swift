import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// Every error code a client can trigger, over the wire, with the connection staying usable.
@Suite struct ErrorCodeTests {
    @Test func everyRoomErrorOverTheWire() async throws {
        try await withParlor(configure: { $0.limits.maxSubscriptionsPerConnection = 2 }) { parlor in
            try await parlor.connect(signIn: false) { anonymous in
                let refused = try await anonymous.call("createRoom", ["pointLimit": 150, "pointValue": 5, "playerCount": 2, "playerName": "Ann"])
                #expect(refused.errorCode == "UNAUTHENTICATED" && refused.errorStatus == "unauthenticated")
            }
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    try await parlor.connect { cy in
                        let invalid = try await ann.call("createRoom", ["pointLimit": 50, "pointValue": 5, "playerCount": 2, "playerName": "Ann"])
                        #expect(invalid.errorCode == "INVALID_INPUT" && invalid.errorStatus == "invalid-argument")
                        #expect(invalid.errorMessage?.contains("pointLimit") == true)
                        let noName = try await ann.call("createRoom", ["pointLimit": 150, "pointValue": 5, "playerCount": 2, "playerName": "  "])
                        #expect(noName.errorCode == "INVALID_INPUT" && noName.errorMessage?.contains("playerName") == true)
                        #expect(try await ann.call("createRoom", ["pointLimit": 150, "pointValue": 0, "playerCount": 2, "playerName": "A"]).errorCode == "INVALID_INPUT")
                        #expect(try await ann.call("createRoom", ["pointLimit": 150, "pointValue": 5, "playerCount": 11, "playerName": "A"]).errorCode == "INVALID_INPUT")

                        let code = try await RoomFlowTests.seat(ann, [bo], limit: 150, capacity: 2)
                        #expect(try await cy.call("joinRoom", ["code": "AB", "playerName": "Cy"]).errorCode == "INVALID_ROOM_CODE")
                        #expect(try await cy.call("joinRoom", ["code": "ZZZZZ9", "playerName": "Cy"]).errorCode == "ROOM_NOT_FOUND")
                        let full = try await cy.call("joinRoom", ["code": code, "playerName": "Cy"])
                        #expect(full.errorCode == "ROOM_FULL" && full.errorMessage == "Room \(code) is full (2 of 2 seats).")

                        let notReady = try await ann.call("startGame", ["roomCode": code])
                        #expect(notReady.errorCode == "INVALID_STATE" && notReady.errorStatus == "failed-precondition")
                        #expect(try await bo.call("startGame", ["roomCode": code]).errorCode == "NOT_MODERATOR")
                        #expect(try await bo.call("setReady", ["roomCode": code, "playerId": ann.userId!, "ready": false]).errorCode == "NOT_MODERATOR")
                        let ghost = "00000000-0000-4000-8000-000000000000"
                        #expect(try await ann.call("setReady", ["roomCode": code, "playerId": ghost, "ready": true]).errorCode == "PLAYER_NOT_FOUND")
                        #expect(try await ann.call("submitScore", ["roomCode": code, "playerId": ann.userId!, "round": 1, "score": 5]).errorCode == "INVALID_STATE")

                        _ = try await bo.call("setReady", ["roomCode": code, "playerId": bo.userId!, "ready": true])
                        _ = try await ann.call("startGame", ["roomCode": code])
                        // A started game takes no new players, whatever the seats.
                        #expect(try await cy.call("joinRoom", ["code": code, "playerName": "Cy"]).errorCode == "INVALID_STATE")
                        let round = try await ann.call("submitScore", ["roomCode": code, "playerId": ann.userId!, "round": 2, "score": 5])
                        #expect(round.errorCode == "INVALID_INPUT" && round.errorMessage?.contains("round") == true)
                        #expect(try await bo.call("submitScore", ["roomCode": code, "playerId": ann.userId!, "round": 1, "score": 5]).errorCode == "NOT_MODERATOR")
                        #expect(try await ann.call("submitScore", ["roomCode": code, "playerId": ann.userId!, "round": 1, "score": -1]).errorCode == "INVALID_INPUT")

                        // Subscriptions.
                        #expect(try await cy.call("unsubscribe", ["subscription": 12345]).errorCode == "SUBSCRIPTION_NOT_FOUND")
                        let other = try await RoomFlowTests.seat(bo, [], limit: 150, capacity: 2)
                        let third = try await RoomFlowTests.seat(cy, [], limit: 150, capacity: 2)
                        _ = try await cy.call("observeRoom", ["code": code])
                        _ = try await cy.call("observeRoom", ["code": other])
                        #expect(try await cy.call("observeRoom", ["code": third]).errorCode == "TOO_MANY_SUBSCRIPTIONS")
                        #expect(try await cy.call("observeRoom", ["code": "NOPE00"]).errorCode == "ROOM_NOT_FOUND")

                        // History is private.
                        #expect(try await cy.call("listGames", ["userId": ann.userId!]).errorCode == "FORBIDDEN")
                        #expect(try await cy.call("listGames", ["before": "yesterday"]).errorCode == "INVALID_INPUT")
                    }
                }
            }
        }
    }

    @Test func malformedRequestsGetBadRequestAndTheConnectionStays() async throws {
        try await withParlor { parlor in
            try await parlor.connect { client in
                try await client.webSocket.send(text: "{not json")
                let garbage = try await client.nextFrame()
                #expect(garbage.errorCode == "BAD_REQUEST" && garbage["id"] is NSNull)
                let unknown = try await client.call("teleport")
                #expect(unknown.errorCode == "BAD_REQUEST" && unknown.errorMessage?.contains("teleport") == true)
                let missing = try await client.call("joinRoom", ["code": "ABCDEF"])
                #expect(missing.errorCode == "BAD_REQUEST" && missing.errorMessage == "args.playerName is missing.")
                let mistyped = try await client.call("createRoom", ["pointLimit": "lots", "pointValue": 5, "playerCount": 2, "playerName": "A"])
                #expect(mistyped.errorCode == "BAD_REQUEST" && mistyped.errorMessage?.contains("args.pointLimit") == true)
                let both = try await client.call("startGame", ["roomCode": "ABCDEF", "lobbyId": "x"])
                #expect(both.errorCode == "BAD_REQUEST")
                try await client.sendJSON(["id": "string-id", "op": "getRoom", "args": ["code": "ABCDEF"]])
                let stringID = try await client.nextFrame()
                #expect(stringID["id"] as? String == "string-id" && stringID.errorCode == "ROOM_NOT_FOUND")
                try await client.webSocket.send(binary: .init(bytes: [1, 2, 3]))
                #expect(try await client.nextFrame().errorCode == "BAD_REQUEST")
                // Still serving.
                #expect(try await client.call("hello").result?["resumed"] as? Bool == true)
            }
        }
    }

    @Test func floodsAreRateLimited() async throws {
        try await withParlor(configure: {
            // Not signed in: the address's rate is the one that applies.
            $0.limits.addressRequestBurst = 5
            $0.limits.addressRequestsPerSecond = RateLimitTests.noRefill
        }) { parlor in
            try await parlor.connect(signIn: false) { client in
                var codes: [String] = []
                for _ in 0..<10 { codes.append(try await client.call("getRoom", ["code": "ABCDEF"]).errorCode ?? "ok") }
                #expect(codes.filter { $0 == "RATE_LIMITED" }.count >= 4)
                #expect(codes.prefix(5).allSatisfy { $0 == "ROOM_NOT_FOUND" })
            }
        }
    }

    @Test func roomLimitIsEnforced() async throws {
        try await withParlor(configure: { $0.limits.maxRooms = 1 }) { parlor in
            try await parlor.connect { client in
                _ = try await RoomFlowTests.seat(client, [])
                let second = try await client.call("createRoom", ["pointLimit": 150, "pointValue": 5, "playerCount": 2, "playerName": "A"])
                #expect(second.errorCode == "NO_FREE_CODE" && second.errorStatus == "resource-exhausted")
            }
        }
    }
}
