// Only with the PostgreSQL trait (scripts/test.sh builds the tests with it): see Package.swift.
#if PostgreSQL
import Foundation
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// Two nodes on one PostgreSQL database, each with its own actor for the same room: a save that lost
/// the race to the other node changes nothing, and the actor reloads the game and applies its change
/// again on top — so no change is lost and the versions only grow. (Fan-out between the nodes, which
/// would show each node's subscribers the other's changes, is the next stage.)
@Suite(.enabled(if: TestPostgres.unavailableReason == nil, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
struct TwoNodesOneGameTests {
    static let toggles = 12

    @Test func writersOnTwoNodesLoseNoChangeAndSeeVersionsOnlyGrow() async throws {
        try await DurableStore.postgres.withPlace { place in
            let (storeA, storeB) = (try await place.open(), try await place.open())
            try await withParlor(store: storeA) { a in
                // Everyone joins on A; B then starts and restores the room from the database.
                let (code, guests) = try await a.connect { host in
                    let created = try await host.call(
                        "createRoom", ["pointLimit": 350, "pointValue": 10, "playerCount": 3, "playerName": "Host"])
                    let code = try #require((created.result?["room"] as? [String: Any])?["id"] as? String, "\(created)")
                    var guests: [String] = []
                    for name in ["Ann", "Bo"] {
                        guests.append(try await a.connect { guest in
                            #expect(try await guest.call("joinRoom", ["code": code, "playerName": name]).result != nil)
                            return try #require(guest.token)
                        })
                    }
                    return (code, guests)
                }
                let before = try #require(try await storeA.loadGame(RummyGame.kind, id: code)).version
                try await withParlor(store: storeB) { b in
                    // Ann toggles her seat on A while Bo toggles his on B, at the same time.
                    async let onA = Self.toggle(code, on: a, token: guests[0])
                    async let onB = Self.toggle(code, on: b, token: guests[1])
                    let (versionsA, versionsB) = try await (onA, onB)
                    for versions in [versionsA, versionsB] {
                        #expect(versions == versions.sorted() && Set(versions).count == versions.count, "\(versions)")
                    }
                    #expect(Set(versionsA).isDisjoint(with: versionsB), "no version was decided twice: \(versionsA) \(versionsB)")
                }
                let stored = try #require(try await storeA.loadGame(RummyGame.kind, id: code))
                #expect(stored.version == before + 2 * Self.toggles, "every change is in the stored room")
                let room = try #require(stored.room)
                #expect(room.players.filter { $0.name != "Host" }.allSatisfy { $0.isReady == Self.lastReady }, "\(room.players)")
            }
            await storeA.close()
            await storeB.close()
        }
    }

    @Test func aRoomCreatedOnOneNodeIsFoundOnAnotherThatStartedBefore() async throws {
        try await DurableStore.postgres.withPlace { place in
            let (storeA, storeB) = (try await place.open(), try await place.open())
            try await withParlor(store: storeB) { b in
                try await withParlor(store: storeA) { a in
                    let code = try await a.connect { host in
                        let created = try await host.call(
                            "createRoom", ["pointLimit": 350, "pointValue": 10, "playerCount": 3, "playerName": "Host"])
                        return try #require((created.result?["room"] as? [String: Any])?["id"] as? String, "\(created)")
                    }
                    // B started before the room existed; it looks the code up in the database.
                    try await b.connect { guest in
                        let joined = try await guest.call("joinRoom", ["code": code, "playerName": "Ann"])
                        #expect(joined.result != nil, "\(joined)")
                        let missing = try await guest.call("joinRoom", ["code": Self.unusedCode(besides: code), "playerName": "Ann"])
                        #expect(missing.errorCode == "ROOM_NOT_FOUND", "a code in no node and not in the database: \(missing)")
                    }
                    let stored = try #require(try await storeA.loadGame(RummyGame.kind, id: code))
                    #expect(stored.room?.players.map(\.name) == ["Host", "Ann"], "the join on B is in the stored room")
                }
            }
            await storeA.close()
            await storeB.close()
        }
    }

    @Test func aNodeDoesNotExpireARoomAnotherNodeChangedSinceItLastReadIt() async throws {
        try await DurableStore.postgres.withPlace { place in
            let (storeA, storeB) = (try await place.open(), try await place.open())
            let clock = ManualClock()
            try await withParlor(store: storeA, clock: clock) { a in
                try await withParlor(store: storeB, clock: clock) { b in
                    // Created on A, joined on B: both hold the room; then nobody is connected.
                    let code = try await a.connect { host in
                        let created = try await host.call(
                            "createRoom", ["pointLimit": 350, "pointValue": 10, "playerCount": 3, "playerName": "Host"])
                        return try #require((created.result?["room"] as? [String: Any])?["id"] as? String, "\(created)")
                    }
                    let ann = try await b.connect { ann in
                        #expect(try await ann.call("joinRoom", ["code": code, "playerName": "Ann"]).result != nil)
                        return try #require(ann.token)
                    }
                    // 23 hours on, Ann changes the room on B; A, with no subscribers for it, is not told.
                    clock.advance(bySeconds: 23 * 3600)
                    try await b.connect(token: ann) { ann in
                        let reply = try await ann.call("setReady", ["roomCode": code, "playerId": try #require(ann.userId), "ready": true])
                        #expect(reply.result != nil, "\(reply)")
                    }
                    // 25 hours after A last read it, 2 after B's change: abandoned on A's copy, not in truth.
                    clock.advance(bySeconds: 2 * 3600)
                    #expect(await a.services.expireAbandonedRooms() == 0)
                    #expect(try await storeA.loadGame(RummyGame.kind, id: code) != nil, "the room is still stored")
                }
            }
            await storeA.close()
            await storeB.close()
        }
    }

    /// A room whose only member, its creator, stays connected to node A is not expired by node B, which
    /// holds the room too and sees nobody connected: A reports who is connected to it, and B asks before
    /// deleting. Once the creator has gone from A too, B expires it.
    @Test func aNodeDoesNotExpireAnUnjoinedRoomWhoseCreatorIsConnectedToAnotherNode() async throws {
        try await DurableStore.postgres.withPlace { place in
            let (storeA, storeB) = (try await place.open(), try await place.open())
            let clock = ManualClock()
            try await withParlor(store: storeA, clock: clock) { a in
                try await withParlor(store: storeB, clock: clock) { b in
                    try await a.connect { host in
                        let created = try await host.call(
                            "createRoom", ["pointLimit": 350, "pointValue": 10, "playerCount": 3, "playerName": "Host"])
                        let code = try #require((created.result?["room"] as? [String: Any])?["id"] as? String, "\(created)")
                        // B holds the room after a look at it; nobody connected to B is in it.
                        let looked = try await b.connect(signIn: false) { watcher in
                            try await watcher.call("getRoom", ["code": code]).result != nil
                        }
                        #expect(looked)
                        // An hour on, the creator still connected to A, which reports so.
                        clock.advance(bySeconds: 3600)
                        await a.services.reportPresence()
                        #expect(await b.services.expireAbandonedRooms() == 0)
                        #expect(try await storeB.loadGame(RummyGame.kind, id: code) != nil, "the room is still stored")
                    }
                    // The creator has left A; A's next report says so (once A has seen the connection
                    // close), and B expires the room.
                    await eventually {
                        await a.services.reportPresence()
                        return await b.services.expireAbandonedRooms() == 1
                    }
                }
            }
            await storeA.close()
            await storeB.close()
        }
    }

    /// A room code of the right shape that is not `code`.
    static func unusedCode(besides code: String) -> String {
        let alphabet = RoomCode.space.alphabet
        return String(alphabet[0] == code.first ? alphabet[1] : alphabet[0]) + code.dropFirst()
    }

    /// The value the last toggle sets.
    static var lastReady: Bool { toggles % 2 == 1 }

    /// Sets the signed-in player ready and not ready in turn; the versions the node answered with.
    static func toggle(_ code: String, on node: ParlorHarness, token: String) async throws -> [Int] {
        try await node.connect(token: token) { player in
            var versions: [Int] = []
            for turn in 0..<toggles {
                let reply = try await player.call("setReady", ["roomCode": code, "playerId": try #require(player.userId), "ready": turn % 2 == 0])
                let result = try #require(reply.result, "\(reply)")
                versions.append(try #require((result["room"] as? [String: Any] ?? result)["version"] as? Int, "\(result)"))
            }
            return versions
        }
    }
}
#endif
