// Only with the PostgreSQL trait (scripts/test.sh builds the tests with it): see Package.swift.
#if PostgreSQL
import Foundation
import ParlorClient
import ParlorTestSupport
import ParlorWire
import Synchronization
import Testing

/// A cluster in which each game is served by one node: three real nodes behind HAProxy
/// (`deploy/haproxy.cfg`) on a throwaway PostgreSQL, driven by the real client library. A room's members
/// all end up on the node that serves it; a rolling restart of every node under load, a fourth node
/// added under load and a node killed under load lose nothing and leave every player on their seat; a
/// watcher on another node sees every version without a database read per version.
@Suite(
    .serialized, .timeLimit(.minutes(6)),
    .enabled(if: ClusterHarness.unavailableReason == nil, Comment(rawValue: ClusterHarness.unavailableReason ?? "")))
struct ClusterRoutingTests {
    /// Rooms created and joined through the front, by clients that land wherever the front puts them:
    /// once each follows its room, every node's `/metrics` shows every subscription on it to a game it
    /// serves — each room's members are all on its node — and a change reaches every member.
    @Test func everyMemberOfARoomEndsUpOnTheNodeThatServesIt() async throws {
        try await ClusterHarness.with { cluster in
            let rooms = 4
            let players = 4
            try await ClusterTests.withClients(urls: Array(repeating: cluster.url, count: rooms * players)) { clients in
                var codes: [String] = []
                for room in 0..<rooms {
                    let seats = clients[(room * players)..<((room + 1) * players)]
                    let code = try await seats.first!.createRoom(pointLimit: 350, pointValue: 1, playerCount: players, playerName: "P\(room)-0").room.id.rawValue
                    for (index, player) in seats.dropFirst().enumerated() { _ = try await player.joinRoom(code: code, playerName: "P\(room)-\(index + 1)") }
                    codes.append(code)
                }
                var streams: [AsyncStream<GameRoom?>] = []
                for (index, client) in clients.enumerated() { streams.append(try await client.observeRoom(code: codes[index / players])) }

                let settled = await Self.poll(timeout: .seconds(20)) {
                    let (here, elsewhere) = await Self.subscriptions(in: cluster)
                    return here == Double(rooms * players) && elsewhere == 0
                }
                let (here, elsewhere) = await Self.subscriptions(in: cluster)
                #expect(settled, "every subscription is on its game's node: \(here) there, \(elsewhere) elsewhere")
                var served: [String: Int] = [:]
                for code in codes { served[try await cluster.servingNode(of: code) ?? "none", default: 0] += 1 }
                #expect(served["none"] == nil, "every room has a node: \(served)")
                // Each node holds the subscriptions of the rooms it serves, no more.
                for index in 0..<cluster.nodeCount {
                    let mine = served[ClusterHarness.nodeName(index)] ?? 0
                    let subscriptions = await cluster.metricSum("parlor_cluster_subscriptions", labels: "served=\"here\"", on: index) ?? -1
                    #expect(subscriptions == Double(mine * players), "node \(index) serves \(mine) rooms and holds \(subscriptions) subscriptions")
                }
                // A change still reaches every member, on their room's node.
                for (room, code) in codes.enumerated() {
                    let changed = try await clients[room * players + 1].setReady(roomCode: code, ready: true)
                    for seat in 0..<players {
                        let shown = try await withTimeout(.seconds(10), "member \(seat) of \(code) seeing the change") { [stream = streams[room * players + seat]] in
                            for await view in stream where view?.version ?? 0 >= changed.version { return view?.version }
                            return nil
                        }
                        #expect(shown == changed.version)
                    }
                }
            }
        }
    }

    /// Every node is restarted in turn (SIGTERM: it drains, closing its clients with 1012; then it
    /// starts again under the same name) while nine players in three rooms keep scoring through the
    /// front. Every acknowledged score is there afterwards, every player is back on their seat with
    /// their stream flowing, and nobody saw anything worse than a reconnect: no request failed.
    @Test func aRollingRestartOfEveryNodeUnderLoadLosesNothing() async throws {
        try await ClusterHarness.with { cluster in
            let scorings = try await ClusterTests.underLoad(cluster, scoringFor: .seconds(40)) { restartedAt in
                restartedAt.mark()
                for index in 0..<cluster.nodeCount {
                    try await cluster.restart(index)
                    try await Task.sleep(for: .seconds(2))
                }
            }
            let failed = scorings.map(\.failures).reduce(0, +)
            #expect(failed == 0, "requests that failed during the rolling restart: \(scorings.map(\.failures)): \(scorings.flatMap(\.errors))")
        }
    }

    /// A fourth node joins under load (started, added to the front, the front reloaded): it takes the
    /// games created after it, while the games already served elsewhere stay where they are — no game
    /// is taken from a node that is up — and their players go on scoring.
    @Test func aFourthNodeAddedUnderLoadTakesNewGames() async throws {
        try await ClusterHarness.with { cluster in
            let newRooms = Mutex<[String]>([])
            let before = Mutex<[String: String]>([:])
            let scorings = try await ClusterTests.underLoad(cluster, scoringFor: .seconds(20)) { addedAt in
                for code in try await Self.roomCodes(in: cluster) { let node = try await cluster.servingNode(of: code); before.withLock { $0[code] = node } }
                addedAt.mark()
                let added = try await cluster.addNode()
                #expect(added == 3)
                // New players arrive through the front. A reloaded HAProxy counts connections afresh
                // (the old process keeps the ones it had), so the new node gets its share of them: of
                // eight connected at once, two; each creates a game where it landed.
                try await ClusterTests.withClients(urls: Array(repeating: cluster.url, count: 8)) { clients in
                    for client in clients { _ = try await client.currentUserID() }
                    for (index, client) in clients.enumerated() {
                        let code = try await client.createRoom(pointLimit: 350, pointValue: 1, playerCount: 2, playerName: "New\(index)").room.id.rawValue
                        _ = try await client.observeRoom(code: code)
                        newRooms.withLock { $0.append(code) }
                    }
                }
            }
            #expect(scorings.allSatisfy { $0.acknowledged > 0 })
            var servedBy: [String] = []
            for code in newRooms.withLock({ $0 }) { servedBy.append(try await cluster.servingNode(of: code) ?? "none") }
            #expect(servedBy.contains(ClusterHarness.nodeName(3)), "the fourth node serves some of the games created after it joined: \(servedBy)\n\(cluster.frontLog.suffix(2000))")
            for (code, node) in before.withLock({ $0 }) {
                #expect(try await cluster.servingNode(of: code) == node, "room \(code) stayed on \(node)")
            }
            for index in 0..<cluster.nodeCount {
                #expect(await cluster.metricSum("parlor_cluster_claims_total", on: index) ?? 0 == 0, "node \(index) took no game from a live node")
            }
        }
    }

    /// A node is killed (`kill -9`) under load: within 5 s every game it served is served by another
    /// node (the database names a live one), and its players go on through it.
    @Test func aKilledNodesGamesAreServedElsewhereWithinFiveSeconds() async throws {
        try await ClusterHarness.with { cluster in
            let servedAgain = Mutex<Duration?>(nil)
            _ = try await ClusterTests.underLoad(cluster, scoringFor: .seconds(12)) { killedAt in
                let codes = try await Self.roomCodes(in: cluster)
                var victim = 0
                for code in codes {
                    if let node = try await cluster.servingNode(of: code), let index = (0..<cluster.nodeCount).first(where: { ClusterHarness.nodeName($0) == node }) {
                        victim = index
                        break
                    }
                }
                let name = ClusterHarness.nodeName(victim)
                let mine = try await Self.roomCodes(in: cluster, servedBy: name)
                #expect(!mine.isEmpty)
                killedAt.mark()
                let killed = ContinuousClock.now
                await cluster.kill(victim)
                let moved = await Self.poll(timeout: .seconds(15)) {
                    for code in mine {
                        guard let node = try? await cluster.servingNode(of: code), node != name else { return false }
                    }
                    return true
                }
                #expect(moved, "the killed node's rooms were taken by others")
                servedAgain.withLock { $0 = ContinuousClock.now - killed }
            }
            let after = try #require(servedAgain.withLock { $0 })
            print("The killed node's rooms were served by another node \(after) after the kill")
            #expect(after < .seconds(5), "served elsewhere within 5 s (took \(after))")
        }
    }

    /// A watcher connected straight to another node than the room's (as a client that does not move
    /// would be) sees every version the room's node commits, in order, each taken from the
    /// announcement itself: that node reads the room from the database once, when the watcher
    /// subscribes, not once per version.
    @Test func aWatcherOnAnotherNodeSeesEveryVersionWithoutAReadPerVersion() async throws {
        try await ClusterHarness.with(nodes: 2) { cluster in
            try await ClusterTests.withClients(urls: [cluster.node(0).url, cluster.node(0).url]) { clients in
                let code = try await clients[0].createRoom(pointLimit: 350, pointValue: 1, playerCount: 2, playerName: "Host").room.id.rawValue
                let player = clients[1]
                _ = try await player.joinRoom(code: code, playerName: "Bo")
                try await cluster.node(1).connect { watcher in
                    let observed = try await watcher.call("observeRoom", ["code": code])
                    let sub = try #require(observed.result?["subscription"] as? Int, "\(observed)")
                    let first = try await watcher.nextEvent(sub: sub)
                    let start = try #require((first["data"] as? [String: Any])?["version"] as? Int)
                    let node = try await watcher.nextNode(sub: sub)
                    #expect((node["data"] as? [String: Any])?["node"] as? String == ClusterHarness.nodeName(0), "told where the room is served")
                    let readsBefore = await cluster.metricSum("parlor_cluster_reloads_total", on: 1) ?? 0
                    var answered: [Int] = []
                    for index in 0..<Self.changes {
                        answered.append(try await player.setReady(roomCode: code, ready: index % 2 == 0).version)
                    }
                    var seen: [Int] = []
                    while seen.last.map({ $0 < answered.last! }) ?? true {
                        let event = try await watcher.nextEvent(sub: sub, timeout: .seconds(10))
                        seen.append(try #require((event["data"] as? [String: Any])?["version"] as? Int, "\(event)"))
                    }
                    #expect(seen == answered, "every version, in order, from \(start): \(seen)")
                    let readsAfter = await cluster.metricSum("parlor_cluster_reloads_total", on: 1) ?? 0
                    let fromAnnouncements = await cluster.metricSum("parlor_cluster_versions_from_announcements_total", on: 1) ?? 0
                    #expect(readsAfter == readsBefore, "no database read for the versions the watcher was shown")
                    #expect(fromAnnouncements >= Double(Self.changes))
                }
            }
        }
    }

    static let changes = 20

    // MARK: Helpers

    /// Subscriptions held on every node to games it serves, and to games another node serves.
    static func subscriptions(in cluster: ClusterHarness) async -> (here: Double, elsewhere: Double) {
        var here = 0.0
        var elsewhere = 0.0
        for index in 0..<cluster.nodeCount {
            here += await cluster.metricSum("parlor_cluster_subscriptions", labels: "served=\"here\"", on: index) ?? 0
            elsewhere += await cluster.metricSum("parlor_cluster_subscriptions", labels: "served=\"elsewhere\"", on: index) ?? 0
        }
        return (here, elsewhere)
    }

    /// The codes of the live rooms (those served by `node`, when given).
    static func roomCodes(in cluster: ClusterHarness, servedBy node: String? = nil) async throws -> [String] {
        let filter = node.map { " AND node = '\($0)'" } ?? ""
        let rows = try await cluster.postgres.psql("SELECT id FROM games WHERE kind = 'rummy'\(filter) ORDER BY id", database: cluster.database)
        return rows.split(separator: "\n").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Polls `condition` every 200 ms until it holds or `timeout` passes; whether it held.
    static func poll(timeout: Duration, _ condition: () async -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(200))
        }
        return await condition()
    }
}
#endif
