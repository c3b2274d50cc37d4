import Foundation
import ParlorSQLite
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// A data directory written by the v1 server (`Fixtures/store-v1`, see its README) is converted by the
/// v2 migration and comes back whole: every room, lobby, finished game, the catalog and the secret
/// that signed its users' tokens — and a lobby's running round ends at its deadline.
@Suite struct SQLiteMigrationTests {
    struct Expected: Decodable {
        struct User: Decodable {
            let userId: UserID
            let token: String
        }

        struct Lobby: Decodable {
            let lobbyCode: String
            let lobbyId: String
        }

        let ann: User
        let bo: User
        let rooms: [String: String]
        let startedRoomVersion: Int
        let lobbies: [String: Lobby]
    }

    static func fixture() throws -> (directory: URL, expected: Expected) {
        let directory = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil)).appendingPathComponent("store-v1")
        let expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: directory.appendingPathComponent("expected.json")))
        return (directory, expected)
    }

    /// A copy of the v1 database in a fresh data directory (the fixture itself is never written).
    static func withV1Directory<T>(_ body: (String, Expected) async throws -> T) async throws -> T {
        let (fixture, expected) = try fixture()
        return try await withTemporaryDirectory { directory in
            try FileManager.default.copyItem(
                atPath: fixture.appendingPathComponent("parlor.sqlite").path, toPath: directory + "/parlor.sqlite")
            return try await body(directory, expected)
        }
    }

    @Test func theFixtureIsAVersion1Database() throws {
        let (fixture, _) = try Self.fixture()
        let (version, tables) = try SQLiteFile.open(fixture.appendingPathComponent("parlor.sqlite").path, readOnly: true) {
            (db: SQLiteConnection) throws -> (Int?, [String]) in
            (try Int.fetchOne(db, sql: "PRAGMA user_version"),
             try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"))
        }
        #expect(version == 1)
        #expect(Set(["rooms", "room_history", "room_history_players", "lobbies"]).isSubset(of: tables))
        #expect(!tables.contains("games"))
    }

    @Test func everyRoomLobbyFinishedGameAndTheSecretSurviveTheMigration() async throws {
        try await Self.withV1Directory { directory, expected in
            let store = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)

            let rooms = try await store.loadRooms()
            let codes = ["open", "started", "finishedLive"].compactMap { expected.rooms[$0] }
            #expect(Set(rooms.map(\.id.rawValue)) == Set(codes))
            let started = try #require(rooms.first { $0.id.rawValue == expected.rooms["started"] })
            #expect(started.version == expected.startedRoomVersion && started.isStarted)
            #expect(started.player(expected.ann.userId)?.scores.first == 40 && started.player(expected.bo.userId)?.scores.first == 15)
            let open = try #require(rooms.first { $0.id.rawValue == expected.rooms["open"] })
            #expect(open.players.map(\.name) == ["Ann", "Bo"] && !open.isStarted)

            // Both finished games, newest first, for each player: the live one and the one whose room is gone.
            for user in [expected.ann.userId, expected.bo.userId] {
                let history = try await store.finishedGames(of: user, before: nil, limit: 10)
                #expect(history.map(\.id.rawValue) == [expected.rooms["finishedGone"], expected.rooms["finishedLive"]])
                #expect(history.allSatisfy { $0.isFinished && $0.results?.winnerId == expected.ann.userId })
            }

            let lobbies = try await store.loadLobbies()
            #expect(Set(lobbies.map(\.lobbyId)) == Set(expected.lobbies.values.map(\.lobbyId)))
            let played = try #require(lobbies.first { $0.lobbyId == expected.lobbies["played"]?.lobbyId })
            #expect(played.status == .open && played.lastRound?.number == 1 && played.lobbyCode.rawValue == expected.lobbies["played"]?.lobbyCode)
            let running = try #require(lobbies.first { $0.lobbyId == expected.lobbies["running"]?.lobbyId })
            let round = try #require(running.round)
            #expect(running.status == .game)

            // The running round got the scheduled action that ends it; the others have none.
            let stored = try await store.loadGames(WordLobbyGame.kind)
            let schedule = try #require(stored.first { $0.id == running.lobbyId }).schedule
            #expect(try GameSchedule<WordLobbyAction>(json: schedule).entries
                == [ScheduledAction(key: WordLobby.roundEndSchedule, due: round.deadline, action: .endRound(round: round.number))])
            #expect(stored.first { $0.id == played.lobbyId }?.schedule == "[]")

            // The same secret: tokens the v1 server issued still name their users.
            let tokens = SessionTokens(secret: try await store.serverSecret())
            #expect(tokens.verify(expected.ann.token) == expected.ann.userId)
            #expect(tokens.verify(expected.bo.token) == expected.bo.userId)
            #expect(try await store.loadCatalog()?.version == 1)

            let (version, tables) = try await store.write("Reading the schema") { (db: SQLiteConnection) throws -> (Int?, [String]) in
                (try Int.fetchOne(db, sql: "PRAGMA user_version"),
                 try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"))
            }
            #expect(version == SQLiteSchema.supportedVersion)
            #expect(Set(tables).isDisjoint(with: ["rooms", "room_history", "room_history_players", "lobbies"]), "\(tables)")
            await store.close()
        }
    }

    @Test func aMigratedServerServesEveryGameAndEndsTheRunningRoundOnTime() async throws {
        try await Self.withV1Directory { directory, expected in
            let store = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            let running = try #require(try await store.loadLobbies().first { $0.lobbyId == expected.lobbies["running"]?.lobbyId })
            let deadline = try #require(running.round?.deadline)
            let clock = ManualClock(now: deadline.adding(seconds: -10))
            try await withParlor(store: store, clock: clock, configure: LobbyFixture.configure) { (parlor: ParlorHarness) async throws in
                try await parlor.connect(signIn: false) { ann in
                    let hello = try await ann.hello(token: expected.ann.token)
                    #expect(hello["resumed"] as? Bool == true && hello["userId"] as? String == expected.ann.userId.rawValue)
                    for name in ["open", "started", "finishedLive"] {
                        let room = try await ann.call("getRoom", ["code": try #require(expected.rooms[name])])
                        #expect(room.result?["id"] as? String == expected.rooms[name], "\(name): \(room)")
                    }
                    let games = try #require(try await ann.call("listGames").result?["games"] as? [[String: Any]])
                    #expect(games.map { $0["roomCode"] as? String } == [expected.rooms["finishedGone"], expected.rooms["finishedLive"]])

                    let lobbyId = running.lobbyId
                    let sub = try await LobbyFixture.observe(ann, lobbyId)
                    let log = LobbyEventLog()
                    _ = try await log.nextLobby(ann, sub: sub) { $0.status == "GAME" }
                    clock.advance(to: deadline)
                    await parlor.services.timers.settled()
                    let ended = try await log.nextLobby(ann, sub: sub) { $0.status == "OPEN" }
                    #expect(ended.lastRoundNumber == 1)
                    let texas = try #require((ended["lastRound"] as? [String: Any])?["players"] as? [[String: Any]])
                        .first { $0["userId"] as? String == expected.ann.userId.rawValue }
                    #expect(texas?["points"] as? Int == 2)
                }
            }
            await store.close()
        }
    }
}
