// Only with the PostgreSQL trait (scripts/test.sh builds the tests with it): see Package.swift.
#if PostgreSQL
import Foundation
import ParlorClient
import ParlorTestSupport
import ParlorWire
import Synchronization
import Testing

/// Three real `parlor-server` nodes on one throwaway PostgreSQL behind HAProxy (`deploy/haproxy.cfg`),
/// driven by the real client library, reconnecting as a phone would: one room's members on three nodes,
/// a word round whose node dies before its timer, a node killed under load, and the database stopped
/// and started under load. Skipped, saying why, only where PostgreSQL or HAProxy is not installed
/// (`scripts/setup.sh --test` installs both; CI runs these).
@Suite(
    .serialized, .timeLimit(.minutes(6)),
    .enabled(if: ClusterHarness.unavailableReason == nil, Comment(rawValue: ClusterHarness.unavailableReason ?? "")))
struct ClusterTests {
    // MARK: One room, three nodes

    static let toggles = 12

    /// A player on each node toggles ready at the same time as the others, and watches the room. Every
    /// change is stored (no update lost to a race between nodes), no version is decided twice, and each
    /// member is shown the versions in order through the newest — the same room at the same version,
    /// whichever node made it.
    @Test func membersOnThreeNodesWriteOneRoomAndSeeTheSameVersionsInOrder() async throws {
        try await ClusterHarness.with { cluster in
            // The host (the moderator, who is always ready) on node 0, and a player on each node.
            let urls = [cluster.node(0).url] + (0..<3).map { cluster.node($0).url }
            try await Self.withClients(urls: urls) { everyone in
                let code = try await everyone[0].createRoom(pointLimit: 350, pointValue: 10, playerCount: 4, playerName: "Host").room.id.rawValue
                let clients = Array(everyone.dropFirst())
                for (index, client) in clients.enumerated() { _ = try await client.joinRoom(code: code, playerName: ["Ann", "Bo", "Cy"][index]) }
                // From the database: a node's copy may not have heard of the last join yet.
                let versionQuery = "SELECT version FROM games WHERE id = '\(code)'"
                let before = try #require(Int(try await cluster.postgres.psql(versionQuery, database: cluster.database)))
                let newest = before + 3 * Self.toggles
                let seen = try await withThrowingTaskGroup(of: (Int, Seen).self) { group in
                    for (index, client) in clients.enumerated() {
                        group.addTask { (index, try await Self.toggleAndWatch(client, code: code, through: newest)) }
                    }
                    var seen: [Int: Seen] = [:]
                    for try await (index, member) in group { seen[index] = member }
                    return (0..<3).map { seen[$0]! }
                }
                let answered = seen.flatMap(\.answered)
                #expect(Set(answered).count == answered.count, "no version was decided twice: \(seen.map(\.answered))")
                var views: [Int: GameRoom] = [:]
                for (index, member) in seen.enumerated() {
                    #expect(member.answered == member.answered.sorted(), "member \(index): \(member.answered)")
                    let versions = member.shown.map(\.version)
                    #expect(zip(versions, versions.dropFirst()).allSatisfy { $0 < $1 }, "member \(index), in order, each once: \(versions)")
                    #expect(versions.last == newest, "member \(index): \(versions)")
                    for room in member.shown {
                        if let other = views[room.version] {
                            #expect(other == room, "version \(room.version) is one room on every node")
                        } else {
                            views[room.version] = room
                        }
                    }
                }
                let stored = try await cluster.postgres.psql(versionQuery, database: cluster.database)
                #expect(Int(stored) == newest, "every change is stored")
            }
        }
    }

    struct Seen: Sendable {
        var answered: [Int] = []
        var shown: [GameRoom] = []
    }

    /// Toggles the member's ready flag `toggles` times while reading the room's stream until it shows
    /// version `newest`.
    static func toggleAndWatch(_ client: ParlorClient, code: String, through newest: Int) async throws -> Seen {
        let stream = try await client.observeRoom(code: code)
        let watching = Task {
            var shown: [GameRoom] = []
            for await room in stream {
                guard let room else { break }
                shown.append(room)
                if room.version >= newest { break }
            }
            return shown
        }
        defer { watching.cancel() }
        var seen = Seen()
        for turn in 0..<toggles {
            seen.answered.append(try await client.setReady(roomCode: code, ready: turn % 2 == 0).version)
        }
        seen.shown = try await withTimeout(.seconds(30), "the room's stream reaching version \(newest)") { await watching.value }
        return seen
    }

    // MARK: A timer whose node dies

    /// A catalog of one category game with the shortest round the rules allow.
    static let catalog = ShortRoundCatalog.json(timeLimit: 10)

    /// A word round is started on node A, whose timer will end it; its players are on nodes B and C. A
    /// is killed before the round's end. The round still ends, on time, exactly once: the stored lobby
    /// is one version past the last word (B and C both hold the round's timer and both fire it; one
    /// saves, the other loses the race, reads the lobby and finds the action gone), its schedule is
    /// empty, and both players are shown the same ended round.
    @Test func aWordRoundEndsOnceWhenTheNodeThatScheduledItIsKilled() async throws {
        try await ClusterHarness.with(beforeNodes: { postgres, database in
            try await Self.importCatalog(Self.catalog, into: postgres.address(database))
        }) { cluster in
            let host = ParlorClient(configuration: Self.configuration(try ServerAddress(cluster.node(0).url)))
            let hostRun = Task { try? await host.run() }
            defer { hostRun.cancel() }
            let created = try await host.createLobby(user: LobbyUserArguments(username: "Ann", colorNumber: 1, emojiNumber: 1), rounds: 2)
            try await Self.withClients(urls: [cluster.node(1).url, cluster.node(2).url]) { players in
                var streams: [AsyncStream<LobbyUpdate>] = []
                for (index, player) in players.enumerated() {
                    _ = try await player.joinLobby(
                        code: created.lobbyCode, user: LobbyUserArguments(username: ["Bo", "Cy"][index], colorNumber: 2 + index, emojiNumber: 2 + index))
                    streams.append(try await player.observeLobby(lobbyId: created.lobbyId))
                }
                try await host.startLobbyGame(lobbyId: created.lobbyId, gameId: "greek-letters")
                _ = try await players[0].submitWord(lobbyId: created.lobbyId, word: "alpha")
                _ = try await players[1].submitWord(lobbyId: created.lobbyId, word: "omega")
                let query = "SELECT version FROM games WHERE id = '\(created.lobbyId)'"
                let lastWord = try #require(Int(try await cluster.postgres.psql(query, database: cluster.database)))
                // The round's end is due in about ten seconds; A goes now, its timer with it.
                await cluster.kill(0)
                await host.close()

                var ended: [LobbyView] = []
                for (index, stream) in streams.enumerated() {
                    let versions = try await withTimeout(.seconds(45), "player \(index) seeing the round end") {
                        var views: [LobbyView] = []
                        for await update in stream {
                            guard case .lobby(let view) = update else { continue }
                            views.append(view)
                            if view.lastRound?.number == 1 { break }
                        }
                        return views
                    }
                    let numbers = versions.map(\.version)
                    #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "player \(index): \(numbers)")
                    let end = try #require(versions.last, "player \(index) saw no version")
                    #expect(end.lastRound?.number == 1 && end.round == nil, "player \(index): \(end)")
                    ended.append(end)
                }
                #expect(ended[0].version == lastWord + 1, "the round's end is the one change after the last word")
                #expect(ended[0].version == ended[1].version && ended[0].lastRound == ended[1].lastRound)
                #expect(ended[0].lastRound?.players.count == 3)
                // Whatever was still to fire is gone from the stored schedule, and nothing fired again.
                try await Task.sleep(for: .seconds(2))
                let stored = try await cluster.postgres.psql(
                    "SELECT version || ' ' || schedule FROM games WHERE id = '\(created.lobbyId)'", database: cluster.database)
                #expect(stored == "\(lastWord + 1) []", "stored: \(stored)")
            }
        }
    }

    /// A word round started on node A whose players are all on A: no other node holds the lobby. A is
    /// killed and nobody comes back. The round ends all the same, once: another node finds the action
    /// overdue in the database, takes the lobby on and fires it (the stored lobby is one version past
    /// the last word, its schedule empty).
    @Test func aWordRoundWhoseOnlyNodeDiesStillEnds() async throws {
        try await ClusterHarness.with(beforeNodes: { postgres, database in
            try await Self.importCatalog(Self.catalog, into: postgres.address(database))
        }) { cluster in
            try await Self.withClients(urls: [cluster.node(0).url, cluster.node(0).url]) { players in
                let created = try await players[0].createLobby(user: LobbyUserArguments(username: "Ann", colorNumber: 1, emojiNumber: 1), rounds: 2)
                _ = try await players[1].joinLobby(code: created.lobbyCode, user: LobbyUserArguments(username: "Bo", colorNumber: 2, emojiNumber: 2))
                try await players[0].startLobbyGame(lobbyId: created.lobbyId, gameId: "greek-letters")
                _ = try await players[1].submitWord(lobbyId: created.lobbyId, word: "beta")
                let query = "SELECT version || ' ' || schedule FROM games WHERE id = '\(created.lobbyId)'"
                let lastWord = try #require(Int(try await cluster.postgres.psql(query, database: cluster.database).split(separator: " ")[0]))
                await cluster.kill(0)
                let stored = try await withTimeout(.seconds(60), "the round's end in the database") {
                    while true {
                        let row = try await cluster.postgres.psql(query, database: cluster.database)
                        if row.hasSuffix(" []") { return row }
                        try await Task.sleep(for: .milliseconds(250))
                    }
                }
                #expect(stored == "\(lastWord + 1) []", "stored: \(stored)")
            }
        }
    }

    /// `parlor-server catalog import FILE --postgres ADDRESS`, as an operator imports a catalog for a cluster.
    static func importCatalog(_ catalog: String, into address: String) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-cluster-catalog-\(UUID().uuidString).json").path
        try catalog.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let importer = try ChildProcess("parlor-server", ["catalog", "import", file, "--postgres", address])
        let status = await importer.waitForExit(timeout: .seconds(60))
        #expect(status == 0, "\(importer.standardError)")
        #expect(importer.standardOutput.contains("Stored catalog version"), "\(importer.standardOutput)")
    }

    // MARK: Under load

    /// Nine players in three rooms, all through the front, enter ever higher scores; node 2 (or
    /// whichever holds the most of them) is killed with `kill -9` in the middle. Every score a player
    /// was told was saved is there afterwards (or a later one the player sent when the answer was lost
    /// with the node), every player is back on their seat through another node with their room's
    /// stream flowing again, and no version of a room was answered twice.
    @Test func aNodeKilledUnderLoadLosesNothingAcknowledgedAndEveryPlayerIsBackOnTheirSeat() async throws {
        _ = try await ClusterHarness.with { cluster in
            try await Self.underLoad(cluster) { killedAt in
                var connections: [Double] = []
                for index in 0..<cluster.nodeCount { connections.append(await cluster.metric("parlor_connections", on: index) ?? 0) }
                let victim = connections.indices.max { connections[$0] < connections[$1] }!
                #expect(connections[victim] > 0, "the node killed held players: \(connections)")
                killedAt.mark()
                await cluster.kill(victim)
            }
        }
    }

    /// The same load while PostgreSQL is stopped (`pg_ctl stop -m immediate`) and started again three
    /// seconds later: meanwhile changes wait, or fail with `UNAVAILABLE` (never another error);
    /// afterwards every acknowledged score is there, every player is on their seat, and every stream
    /// flows again — the nodes' listening connections came back and caught up.
    ///
    /// It failed in about half the runs of this suite until `PostgresPool.withConnection` stopped
    /// trusting postgres-nio with closed connections: its pool can lease one whose socket has just
    /// closed, and a query written to it is never answered, so a node's writer — and every later save
    /// of the node — waited for good.
    @Test
    func postgresStoppedAndRestartedUnderLoadLosesNothingAcknowledged() async throws {
        let postgres = try #require(try await TestPostgres.startDedicated())
        try await ClusterHarness.with(postgres: postgres) { cluster in
            // Scoring goes on for 15 s after the database is back, past the 10 s limit on any one
            // database call: whatever still held a player's request is given up by then, and its
            // player is answered again after that.
            try await Self.underLoad(cluster, scoringFor: .seconds(23)) { killedAt in
                killedAt.mark()
                try await postgres.stop()
                try await Task.sleep(for: .seconds(3))
                try await postgres.start()
            }
            for index in 0..<cluster.nodeCount {
                let health = try await curl(["http://127.0.0.1:\(cluster.node(index).port)/healthz"])
                #expect(health.status == 200, "node \(index) after the database came back: \(health.body)")
            }
        }
    }

    /// What one player did under load.
    struct Scoring: Sendable {
        var acknowledged = 0
        var tried = 0
        var versions: [Int] = []
        var failures = 0
        /// Every failure, as the client described it, for the test's messages.
        var errors: [String] = []
        var unexpected: [String] = []
        /// The first acknowledgement after a failure that came after the disruption.
        var recoveredAt: ContinuousClock.Instant?
    }

    static let roomCount = 3
    static let playersPerRoom = 3

    /// Sets up three rooms of three players through the front, runs their scoring for 2 s, calls
    /// `disrupt`, keeps scoring until `duration` is over, then checks what the players were told against
    /// the rooms. Returns what each player did.
    @discardableResult
    static func underLoad(
        _ cluster: ClusterHarness, scoringFor duration: Duration = .seconds(10), disrupt: @Sendable (Moment) async throws -> Void
    ) async throws -> [Scoring] {
        let count = roomCount * playersPerRoom
        return try await withClients(urls: Array(repeating: cluster.url, count: count)) { clients in
            var codes: [String] = []
            for room in 0..<roomCount {
                let seats = clients[(room * playersPerRoom)..<((room + 1) * playersPerRoom)]
                let code = try await seats.first!.createRoom(pointLimit: 350, pointValue: 1, playerCount: playersPerRoom, playerName: "P\(room)-0").room.id.rawValue
                for (index, player) in seats.dropFirst().enumerated() { _ = try await player.joinRoom(code: code, playerName: "P\(room)-\(index + 1)") }
                for player in seats { _ = try await player.setReady(roomCode: code, ready: true) }
                _ = try await seats.first!.startGame(roomCode: code)
                codes.append(code)
            }
            let disruptedAt = Moment()
            let stopAt = ContinuousClock.now + duration
            let scorings = try await withThrowingTaskGroup(of: (Int, Scoring).self) { group in
                for (index, client) in clients.enumerated() {
                    let code = codes[index / playersPerRoom]
                    group.addTask { (index, await score(client, code: code, until: stopAt, disruptedAt: disruptedAt)) }
                }
                try await Task.sleep(for: .seconds(2))
                try await disrupt(disruptedAt)
                var scorings: [Int: Scoring] = [:]
                for try await (index, scoring) in group { scorings[index] = scoring }
                return (0..<count).map { scorings[$0]! }
            }
            if ProcessInfo.processInfo.environment["CLUSTER_LOGS"] != nil {
                for index in 0..<cluster.nodeCount {
                    let health = try? await curl(["--max-time", "3", "http://127.0.0.1:\(cluster.node(index).port)/healthz"])
                    let metrics = try? await curl(["--max-time", "3", "http://127.0.0.1:\(cluster.node(index).port)/metrics"])
                    let lines = (metrics?.body ?? "").split(separator: "\n").filter { $0.hasPrefix("parlor_store") || $0.hasPrefix("parlor_connections") || $0.hasPrefix("parlor_cluster_notifications") }
                    print("node \(index): healthz \(health?.status ?? -1) \(health?.body ?? "")\n\(lines.joined(separator: "\n"))\n\(cluster.node(index).log.suffix(3000))")
                }
                print("front:\n\(cluster.frontLog.suffix(3000))")
                let activity = try? await cluster.postgres.psql(
                    "SELECT pid, state, wait_event_type, wait_event, now() - xact_start, left(query, 160) FROM pg_stat_activity WHERE datname = '\(cluster.database)'")
                print("pg_stat_activity:\n\(activity ?? "(no answer)")")
                print("clients: " + clients.enumerated().map { "\($0.offset): \($0.element.connectionState)" }.joined(separator: "; "))
            }
            let disrupted = try #require(disruptedAt.value)
            // Requests made while a player's connection is down wait for it (within the request
            // timeout), and a database away for less than the node's 5 s wait for a connection only
            // delays its requests: few fail, perhaps none.
            let failed = scorings.filter { $0.failures > 0 }
            let recovery = failed.compactMap(\.recoveredAt).map { $0 - disrupted }.max()
            print("Cluster under load: \(scorings.map(\.acknowledged).reduce(0, +)) scores acknowledged, "
                + "\(scorings.map(\.failures).reduce(0, +)) requests failed; the last player to get an answer again after the disruption "
                + "got it \(recovery.map { "\($0)" } ?? "never") after it")

            for (index, scoring) in scorings.enumerated() {
                #expect(scoring.unexpected.isEmpty, "player \(index) got errors other than UNAVAILABLE or a lost connection: \(scoring.unexpected)")
                #expect(scoring.acknowledged > 0)
                if scoring.failures > 0 { #expect(scoring.recoveredAt != nil, "player \(index) was answered again after the disruption") }
            }
            for (room, code) in codes.enumerated() {
                let answered = (0..<playersPerRoom).flatMap { scorings[room * playersPerRoom + $0].versions }
                #expect(Set(answered).count == answered.count, "room \(code): no version was answered twice")
                // Each player, back on a node, reads the room: their seat and their newest acknowledged
                // score (or a later one they sent) are there, and their stream shows the same room.
                var final: GameRoom?
                for seat in 0..<playersPerRoom {
                    let client = clients[room * playersPerRoom + seat]
                    let scoring = scorings[room * playersPerRoom + seat]
                    let read = try await withTimeout(.seconds(30), "player \(seat) of \(code) reading the room") {
                        while true {
                            if let room = try? await client.getRoom(code: code) { return room }
                            try await Task.sleep(for: .milliseconds(100))
                        }
                    }
                    let user = try #require(client.userId)
                    let mine = try #require(read.players.first { $0.id == user }, "player \(seat) is on their seat in \(code)")
                    #expect((scoring.acknowledged...scoring.tried).contains(mine.scores[0]),
                            "\(code) player \(seat): stored \(mine.scores[0]), acknowledged \(scoring.acknowledged), tried up to \(scoring.tried)")
                    #expect(client.connectionState.isConnected)
                    if let final { #expect(final.version == read.version) }
                    final = read
                }
                let newest = try #require(final)
                #expect(answered.allSatisfy { $0 <= newest.version })
                for seat in 0..<playersPerRoom {
                    let client = clients[room * playersPerRoom + seat]
                    let stream = try await client.observeRoom(code: code)
                    let shown = try await withTimeout(.seconds(20), "player \(seat)'s stream of \(code)") {
                        for await room in stream where room?.version ?? 0 >= newest.version { return room }
                        return nil
                    }
                    #expect(shown == newest, "player \(seat) of \(code) is shown the room as stored")
                }
            }
            return scorings
        }
    }

    /// One player entering scores 1, 2, 3, … for round 1, ten a second, until `stopAt`.
    static func score(_ client: ParlorClient, code: String, until stopAt: ContinuousClock.Instant, disruptedAt: Moment) async -> Scoring {
        var scoring = Scoring()
        var failedSinceDisruption = false
        while ContinuousClock.now < stopAt, scoring.tried < RummyLimits.maxRoundScore {
            scoring.tried += 1
            do {
                let room = try await client.submitScore(roomCode: code, round: 1, score: scoring.tried)
                scoring.acknowledged = scoring.tried
                scoring.versions.append(room.version)
                if failedSinceDisruption, scoring.recoveredAt == nil { scoring.recoveredAt = .now }
            } catch {
                scoring.failures += 1
                scoring.errors.append(error.description)
                if disruptedAt.value != nil { failedSinceDisruption = true }
                switch error {
                case .server(let code, _, _) where code == .unavailable: break
                case .connectionLost, .timeout, .notConnected: break
                default: scoring.unexpected.append(error.description)
                }
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return scoring
    }

    // MARK: Clients

    /// The client as a phone runs it, with quick reconnection and every room version kept (not
    /// conflated), so a test sees each version it was sent.
    static func configuration(_ address: ServerAddress) -> ParlorClientConfiguration {
        var configuration = ParlorClientConfiguration(server: address)
        configuration.requestTimeout = .seconds(10)
        configuration.reconnect.initialDelay = .milliseconds(50)
        configuration.reconnect.maximumDelay = .seconds(1)
        configuration.roomEventBuffer = 10_000
        configuration.lobbyEventBuffer = 10_000
        return configuration
    }

    /// A running client for each of `urls` for the duration of `body`; all closed afterwards.
    static func withClients<R: Sendable>(urls: [String], _ body: ([ParlorClient]) async throws -> R) async throws -> R {
        let clients = try urls.map { ParlorClient(configuration: configuration(try ServerAddress($0))) }
        return try await withThrowingTaskGroup(of: Void.self, returning: R.self) { group in
            for client in clients { group.addTask { try? await client.run() } }
            do {
                let result = try await body(clients)
                for client in clients { await client.close() }
                try await group.waitForAll()
                return result
            } catch {
                for client in clients { await client.close() }
                try? await group.waitForAll()
                throw error
            }
        }
    }
}

private enum RummyLimits {
    /// `RummyRules.maxRoundScore`: the highest score a round takes.
    static let maxRoundScore = 1000
}

/// When something happened, set once from one task and read from others.
final class Moment: Sendable {
    private let instant = Mutex<ContinuousClock.Instant?>(nil)
    var value: ContinuousClock.Instant? { instant.withLock { $0 } }
    func mark() { instant.withLock { $0 = $0 ?? .now } }
}

#endif
