import Foundation
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// A game added to the kernel from outside it — the counter, only rules, a definition and an operation
/// table (`Counter.swift`, `CounterModule.swift`) — gets every kernel feature through the real server:
/// live streams with private views, persistence and restore, a scheduled action across a restart,
/// cancellation, history, revoked views and deletion.
@Suite struct CounterGameTests {
    static let games: [any GameModule] = ParlorGames.standard + [CounterModule()]

    static func create(_ client: JSONConnection) async throws -> (id: String, code: String) {
        let reply = try await client.call("createCounter")
        let view = try #require(reply.result, "createCounter failed: \(reply)")
        return (try #require(view["id"] as? String), try #require(view["code"] as? String))
    }

    static func observe(_ client: JSONConnection, _ id: String) async throws -> Int {
        let reply = try await client.call("observeCounter", ["counterId": id])
        return try #require(reply.result?["subscription"] as? Int, "observeCounter failed: \(reply)")
    }

    /// The next `counter` event whose data satisfies `predicate` (other events of `sub` are read past).
    static func nextCounter(_ client: JSONConnection, _ sub: Int, where predicate: ([String: Any]) -> Bool) async throws -> [String: Any] {
        while true {
            let frame = try await client.nextEvent(sub: sub)
            if frame["event"] as? String == "counter", let data = frame["data"] as? [String: Any], predicate(data) { return data }
        }
    }

    @Test func membersSeeEveryPressAndOnlyTheirOwnTally() async throws {
        try await withParlor(games: Self.games) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let counter = try await Self.create(ann)
                    #expect(try await bo.call("observeCounter", ["counterId": counter.id]).errorCode == "FORBIDDEN")
                    #expect(try await bo.call("joinCounter", ["code": counter.code]).result?["players"] as? Int == 2)
                    let annSub = try await Self.observe(ann, counter.id)
                    let boSub = try await Self.observe(bo, counter.id)
                    _ = try await ann.call("press", ["counterId": counter.id, "times": 3])
                    _ = try await bo.call("press", ["counterId": counter.id, "times": 4])
                    #expect(try await bo.call("press", ["counterId": counter.id, "times": 0]).errorCode == "INVALID_INPUT")

                    // Everyone sees the total; each private event is its subscriber's own, with every version.
                    for (client, sub, me, presses) in [(ann, annSub, ann.userId, 3), (bo, boSub, bo.userId, 4)] {
                        var privates: [[String: Any]] = []
                        while true {
                            let frame = try await client.nextEvent(sub: sub)
                            if frame["event"] as? String == "counterPrivate" { privates.append(try #require(frame["data"] as? [String: Any])) }
                            if frame["event"] as? String == "counterPrivate", (frame["data"] as? [String: Any])?["version"] as? Int == 4 { break }
                        }
                        #expect(privates.allSatisfy { $0["userId"] as? String == me })
                        #expect(privates.last?["presses"] as? Int == presses)
                    }
                    #expect(try await ann.call("press", ["counterId": counter.id, "times": 1]).result?["count"] as? Int == 8)
                }
            }
        }
    }

    @Test func aCounterAndItsBellSurviveARestart() async throws {
        try await withTemporaryDirectory { directory in
            let clock = ManualClock()
            let first = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            let (counter, token) = try await withParlor(store: first, clock: clock, games: Self.games) { parlor in
                try await parlor.connect { ann in
                    let counter = try await Self.create(ann)
                    _ = try await ann.call("press", ["counterId": counter.id, "times": 3])
                    _ = try await ann.call("setBell", ["counterId": counter.id, "seconds": 60])
                    return (counter, try #require(ann.token))
                }
            }
            await first.close()
            // The server was down when the bell was due.
            clock.advance(bySeconds: 90)
            let second = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            try await withParlor(store: second, clock: clock, games: Self.games) { (parlor: ParlorHarness) async throws in
                await parlor.services.timers.settled()
                try await parlor.connect(token: token) { ann in
                    let sub = try await Self.observe(ann, counter.id)
                    let rung = try await Self.nextCounter(ann, sub) { _ in true }
                    #expect(rung["count"] as? Int == 3 && rung["rings"] as? Int == 1)
                    #expect(rung["bell"] == nil && rung["version"] as? Int == 4)
                    // Rung once: its scheduled action went with the save that applied it.
                    let stored = try #require(try await second.loadGames(CounterGame.kind).first)
                    #expect(stored.schedule == "[]" && stored.version == 4)

                    // A bell not yet due when the server stops rings at its time after the restart.
                    _ = try await ann.call("setBell", ["counterId": counter.id, "seconds": 120])
                }
            }
            await second.close()
            clock.advance(bySeconds: 60)
            let third = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            try await withParlor(store: third, clock: clock, games: Self.games) { (parlor: ParlorHarness) async throws in
                await parlor.services.timers.settled()
                #expect(try await Self.rings(parlor, counter.id) == 1)
                // The bell, and presence's settle (the restored counter has a player).
                await eventually { parlor.services.timers.armedCount == 2 }
                clock.advance(bySeconds: 60)
                await parlor.services.timers.settled()
                #expect(try await Self.rings(parlor, counter.id) == 2)
            }
            await third.close()
        }
    }

    @Test func aCancelledBellNeverRings() async throws {
        let clock = ManualClock()
        try await withParlor(clock: clock, games: Self.games) { parlor in
            try await parlor.connect { ann in
                let counter = try await Self.create(ann)
                _ = try await ann.call("setBell", ["counterId": counter.id, "seconds": 30])
                _ = try await ann.call("setBell", ["counterId": counter.id, "seconds": 60])  // replaces the first
                clock.advance(bySeconds: 30)
                await parlor.services.timers.settled()
                #expect(try await Self.rings(parlor, counter.id) == 0)
                _ = try await ann.call("cancelBell", ["counterId": counter.id])
                clock.advance(bySeconds: 60)
                await parlor.services.timers.settled()
                #expect(try await Self.rings(parlor, counter.id) == 0)
                #expect(parlor.services.timers.armedCount == 0)
            }
        }
    }

    @Test func closingFilesItAndTheLastOneOutDeletesIt() async throws {
        let store = InMemoryStore()
        try await withParlor(store: store, games: Self.games) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let counter = try await Self.create(ann)
                    _ = try await bo.call("joinCounter", ["code": counter.code])
                    let annSub = try await Self.observe(ann, counter.id)
                    let boSub = try await Self.observe(bo, counter.id)
                    _ = try await ann.call("press", ["counterId": counter.id, "times": 2])
                    #expect(try await ann.call("closeCounter", ["counterId": counter.id]).result?["isClosed"] as? Bool == true)
                    #expect(try await ann.call("press", ["counterId": counter.id, "times": 1]).errorCode == "INVALID_STATE")
                    let filed = try #require(try await bo.call("closedCounters")["result"] as? [[String: Any]])
                    #expect(filed.map { $0["count"] as? Int } == [2])

                    // Bo leaves: his view is revoked, Ann's goes on.
                    _ = try await bo.call("leaveCounter", ["counterId": counter.id])
                    while try await bo.nextEvent(sub: boSub)["event"] as? String != "end" {}
                    _ = try await Self.nextCounter(ann, annSub) { $0["players"] as? Int == 1 }
                    // Ann, the last one, leaves: the counter is deleted, its observers get null then end.
                    #expect(try await ann.call("leaveCounter", ["counterId": counter.id])["result"] is NSNull)
                    var sawNull = false
                    while true {
                        let event = try await ann.nextEvent(sub: annSub)
                        if event["event"] as? String == "counter", event["data"] is NSNull { sawNull = true }
                        if event["event"] as? String == "end" { break }
                    }
                    #expect(sawNull)
                    #expect(try await ann.call("joinCounter", ["code": counter.code]).errorCode == "NOT_FOUND")
                    #expect(parlor.services.host(CounterGame.self).directory.count == 0)
                    #expect(try await store.loadGames(CounterGame.kind).isEmpty)
                    // History outlives the game.
                    #expect((try await ann.call("closedCounters")["result"] as? [[String: Any]])?.count == 1)
                }
            }
        }
    }

    static func rings(_ parlor: ParlorHarness, _ id: String) async throws -> Int {
        try await parlor.services.host(CounterGame.self).game(id: id).current().0.rings
    }
}
