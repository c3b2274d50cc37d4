// Only with the PostgreSQL trait (scripts/test.sh builds the tests with it): see Package.swift.
#if PostgreSQL
import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// Two nodes on one PostgreSQL database, a room's members and watchers spread over both: every version
/// either node commits reaches the watchers on the other (announced by NOTIFY after the commit, read
/// back by the node that has subscribers), and each watcher sees versions only grow.
@Suite(.enabled(if: TestPostgres.unavailableReason == nil, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
struct TwoNodesFanOutTests {
    @Test func watchersOnBothNodesSeeEveryNodesChangesInOrder() async throws {
        try await DurableStore.postgres.withPlace { place in
            let (storeA, storeB) = (try await place.open(), try await place.open())
            try await withParlor(store: storeA) { a in
                try await withParlor(store: storeB) { b in
                    let (code, ann) = try await a.connect { host in
                        let created = try await host.call(
                            "createRoom", ["pointLimit": 350, "pointValue": 10, "playerCount": 3, "playerName": "Host"])
                        let code = try #require((created.result?["room"] as? [String: Any])?["id"] as? String, "\(created)")
                        let ann = try await a.connect { guest in
                            #expect(try await guest.call("joinRoom", ["code": code, "playerName": "Ann"]).result != nil)
                            return try #require(guest.token)
                        }
                        return (code, ann)
                    }
                    // Bo joins on B, which adopts the room from the database.
                    let bo = try await b.connect { guest in
                        #expect(try await guest.call("joinRoom", ["code": code, "playerName": "Bo"]).result != nil)
                        return try #require(guest.token)
                    }
                    try await a.connect(signIn: false) { watcherA in
                        try await b.connect(signIn: false) { watcherB in
                            let subA = try await Self.observe(code, on: watcherA)
                            let subB = try await Self.observe(code, on: watcherB)
                            // Writers on both nodes at once, then one more change on A alone: B has it
                            // only if A's announcement reached it.
                            async let onA = TwoNodesOneGameTests.toggle(code, on: a, token: ann)
                            async let onB = TwoNodesOneGameTests.toggle(code, on: b, token: bo)
                            _ = try await (onA, onB)
                            let last = try await a.connect(token: ann) { player in
                                let reply = try await player.call("leaveRoom", ["roomCode": code, "playerId": try #require(player.userId)])
                                #expect(reply.errorCode == nil, "\(reply)")
                                return try #require(try await storeA.loadGame(RummyGame.kind, id: code)).version
                            }
                            let seenA = try await Self.versions(of: subA, on: watcherA, through: last)
                            let seenB = try await Self.versions(of: subB, on: watcherB, through: last)
                            for seen in [seenA, seenB] {
                                #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 < $1 }, "versions only grow, each once: \(seen)")
                                #expect(seen.last == last, "\(seen)")
                            }
                        }
                    }
                    let metrics = String(decoding: b.services.metrics.exposition(), as: UTF8.self)
                    #expect(Self.value(of: "parlor_cluster_notifications_received_total", in: metrics) > 0, "\(metrics)")
                    #expect(Self.value(of: "parlor_cluster_fanout_latency_seconds_count", in: metrics) > 0)
                    let sent = String(decoding: a.services.metrics.exposition(), as: UTF8.self)
                    #expect(Self.value(of: "parlor_cluster_notifications_sent_total", in: sent) > 0)
                }
            }
            await storeA.close()
            await storeB.close()
        }
    }

    /// A node that holds a room nobody there watches is not made to read it on every change elsewhere,
    /// yet never shows an older room than one the other node acknowledged: `getRoom` on B, after Ann
    /// changed the room on A, shows the change; and when the last player leaves on A, B hears that the
    /// room is gone rather than serving its copy.
    @Test func aNodeHoldingAnUnwatchedRoomReadsItAgainWhenItIsNextAskedFor() async throws {
        try await DurableStore.postgres.withPlace { place in
            let (storeA, storeB) = (try await place.open(), try await place.open())
            try await withParlor(store: storeA) { a in
                try await withParlor(store: storeB) { b in
                    try await a.connect { ann in
                        let created = try await ann.call(
                            "createRoom", ["pointLimit": 350, "pointValue": 10, "playerCount": 3, "playerName": "Ann"])
                        let code = try #require((created.result?["room"] as? [String: Any])?["id"] as? String, "\(created)")
                        try await b.connect(signIn: false) { reader in
                            // B adopts the room with this read, and holds it; nobody on B watches it.
                            let first = try await reader.call("getRoom", ["code": code])
                            let before = try #require(first.result?["version"] as? Int, "\(first)")
                            // The moderator is always ready: Ann, the moderator, makes Bo (who joined on
                            // A) ready.
                            let bo = try await a.connect { guest in
                                #expect(try await guest.call("joinRoom", ["code": code, "playerName": "Bo"]).result != nil)
                                return try #require(guest.userId)
                            }
                            let ready = try await ann.call("setReady", ["roomCode": code, "playerId": bo, "ready": true])
                            let acknowledged = try #require((ready.result?["room"] as? [String: Any] ?? ready.result)?["version"] as? Int, "\(ready)")
                            #expect(acknowledged > before)
                            await eventually {
                                let read = try? await reader.call("getRoom", ["code": code])
                                return (read?.result?["version"] as? Int) == acknowledged
                            }
                            for player in [bo, try #require(ann.userId)] {
                                let left = try await ann.call("leaveRoom", ["roomCode": code, "playerId": player])
                                #expect(left.errorCode == nil, "\(left)")
                            }
                            await eventually {
                                let read = try? await reader.call("getRoom", ["code": code])
                                return read?.errorCode == "ROOM_NOT_FOUND"
                            }
                        }
                    }
                }
            }
            await storeA.close()
            await storeB.close()
        }
    }

    /// Watches the room; the subscription, its first snapshot read.
    static func observe(_ code: String, on watcher: JSONConnection) async throws -> Int {
        let observed = try await watcher.call("observeRoom", ["code": code])
        let sub = try #require(observed.result?["subscription"] as? Int, "\(observed)")
        _ = try await watcher.nextEvent(sub: sub)
        return sub
    }

    /// The versions the watcher is shown, up to `last`.
    static func versions(of sub: Int, on watcher: JSONConnection, through last: Int) async throws -> [Int] {
        var seen: [Int] = []
        while seen.last.map({ $0 < last }) ?? true {
            let event = try await watcher.nextEvent(sub: sub, timeout: .seconds(10))
            seen.append(try #require((event["data"] as? [String: Any])?["version"] as? Int, "\(event)"))
        }
        return seen
    }

    /// The first sample of a metric in the exposition (0 when absent).
    static func value(of metric: String, in exposition: String) -> Double {
        for line in exposition.split(separator: "\n") where line.hasPrefix(metric + " ") || line.hasPrefix(metric + "{") {
            return Double(line.split(separator: " ").last ?? "") ?? 0
        }
        return 0
    }
}
#endif
