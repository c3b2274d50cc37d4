import Foundation
import ParlorRules
import ParlorTestSupport
import ParlorWire
import Testing
@testable import ParlorServer

/// A game nobody joined goes after minutes, not a day: it holds a code, memory and its creator's quota.
@Suite struct ExpiryTests {
    @Test func anUnjoinedRoomExpiresAfterTheShortDelay() async throws {
        let clock = ManualClock()
        try await withParlor(clock: clock, configure: {
            LobbyFixture.configure(&$0)
            $0.unjoinedGameExpiry = .minutes(10)
            $0.roomExpiry = .hours(24)
            $0.limits.maxGamesPerUser = 3
        }) { parlor in
            let (lonelyRoom, lonelyLobby, joinedRoom, annID) = try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let lonelyRoom = try await RoomFlowTests.seat(ann, [])
                    let lonelyLobby = try await LobbyFixture.create(ann)
                    let joinedRoom = try await RoomFlowTests.seat(ann, [bo])
                    return (lonelyRoom, lonelyLobby, joinedRoom, try #require(ann.userId.flatMap(UserID.init)))
                }
            }
            // Nobody is connected now (once the server has seen the connections close). Nine minutes: too soon.
            #expect(await eventually { !parlor.services.presence.isConnected(annID) })
            clock.advance(bySeconds: 9 * 60)
            #expect(await parlor.services.expireAbandonedGames() == 0)
            clock.advance(bySeconds: 2 * 60)
            #expect(await parlor.services.expireAbandonedRooms() == 1)
            #expect(await parlor.services.expireAbandonedLobbies() == 1)
            await #expect(throws: WireError.self) { try await parlor.services.host(RummyGame.self).game(code: lonelyRoom) }
            #expect(parlor.services.lobbyDirectory.lobby(id: lonelyLobby.id) == nil)
            // The room someone joined waits for the long expiry.
            #expect(try await parlor.services.host(RummyGame.self).game(code: joinedRoom).code.rawValue == joinedRoom)
            // And the creator has her places back.
            #expect(parlor.services.quota.count(of: annID) == 1)
            clock.advance(bySeconds: 24 * 3600)
            #expect(await parlor.services.expireAbandonedRooms() == 1)
            #expect(parlor.services.quota.count(of: annID) == 0)
        }
    }

    @Test func aCreatorStillConnectedKeepsTheirGame() async throws {
        let clock = ManualClock()
        try await withParlor(clock: clock) { parlor in
            try await parlor.connect { ann in
                let code = try await RoomFlowTests.seat(ann, [])
                clock.advance(bySeconds: 3600)
                #expect(await parlor.services.expireAbandonedRooms() == 0)
                #expect(try await ann.call("getRoom", ["code": code]).result != nil)
            }
        }
    }
}
