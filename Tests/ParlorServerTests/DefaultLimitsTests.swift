import Foundation
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// The server as it starts with no flags holds the line against one abusive client: every test here
/// uses the default configuration, and each failed on the server before these limits existed.
@Suite struct DefaultLimitsTests {
    static var room: [String: Any] { ["pointLimit": 150, "pointValue": 5, "playerCount": 2, "playerName": "Ann"] }

    @Test func oneUserCreatingRoomsPastTheQuotaOverHTTP() async throws {
        try await withParlor { parlor in
            let (_, session) = try await parlor.http("POST", "/session")
            let token = try #require((session as? [String: Any])?["token"] as? String)
            var statuses: [Int] = []
            for _ in 0..<15 { statuses.append(try await parlor.http("POST", "/rooms", body: Self.room, token: token).0) }
            #expect(statuses.prefix(10).allSatisfy { $0 == 201 })
            #expect(statuses.dropFirst(10).allSatisfy { $0 == 429 }, "\(statuses)")
        }
    }

    @Test func oneUserCreatingRoomsAndLobbiesPastTheQuotaOverTheWebSocket() async throws {
        try await withParlor(configure: LobbyFixture.configure) { parlor in
            try await parlor.connect { ann in
                for _ in 0..<5 { _ = try await RoomFlowTests.seat(ann, []) }
                for _ in 0..<5 { _ = try await LobbyFixture.create(ann) }
                #expect(try await ann.call("createRoom", Self.room).errorCode == "QUOTA_EXCEEDED")
                #expect(try await ann.call("createLobby", ["user": LobbyFixture.user("Ann")]).errorCode == "QUOTA_EXCEEDED")
            }
        }
    }

    @Test func malformedFramesAreRateLimited() async throws {
        try await withParlor { parlor in
            try await parlor.connect(signIn: false) { client in
                // Not signed in, so its address's bucket applies: 600 at once, then 300 a second.
                for _ in 0..<2_000 { try await client.webSocket.send(text: "{not json") }
                var codes: [String: Int] = [:]
                for _ in 0..<2_000 { codes[try await client.nextFrame().errorCode ?? "ok", default: 0] += 1 }
                #expect(codes["RATE_LIMITED", default: 0] > 0, "2,000 malformed frames, all answered: \(codes)")
                #expect(codes["BAD_REQUEST", default: 0] >= 600)
            }
        }
    }

    @Test func oneAddressPastTheConnectionCap() async throws {
        try await withParlor { parlor in
            func hold(_ count: Int, _ body: () async throws -> Void) async throws {
                guard count > 0 else { return try await body() }
                try await parlor.connect(signIn: false) { _ in try await hold(count - 1, body) }
            }
            try await hold(256) {
                await #expect(throws: (any Error).self, "a 257th connection from one address is refused") {
                    try await parlor.connect(signIn: false) { _ in }
                }
            }
        }
    }

    @Test func anUnjoinedRoomExpiresAfterMinutes() async throws {
        let clock = ManualClock()
        try await withParlor(clock: clock) { parlor in
            let ann = try await parlor.connect { ann in
                _ = try await RoomFlowTests.seat(ann, [])
                return try #require(ann.userId.flatMap(UserID.init))
            }
            // The server has seen the connection close: nobody in the room is around.
            #expect(await eventually { !parlor.services.presence.isConnected(ann) })
            clock.advance(bySeconds: 11 * 60)
            #expect(await parlor.services.expireAbandonedRooms() == 1)
        }
    }

    @Test func healthzIsUnhealthyWhenTheStoreCannotWrite() async throws {
        let store = FailingStore()
        try await withParlor(store: store, configure: LobbyFixture.configure) { parlor in
            try await parlor.connect { ann in
                store.failsLobbyWrites = true
                let code = try await ann.call("createLobby", ["user": LobbyFixture.user("Ann")]).errorCode
                #expect(code == "INTERNAL")
            }
            #expect(try await parlor.http("GET", "/healthz").0 == 503)
        }
    }
}
