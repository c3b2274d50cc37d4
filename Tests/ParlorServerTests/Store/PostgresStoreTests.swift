// Only with the PostgreSQL trait (scripts/test.sh builds the tests with it): see Package.swift.
#if PostgreSQL
import Foundation
import ParlorRules
import ParlorTestSupport
import Synchronization
import Testing
@testable import ParlorServer

/// What only the PostgreSQL store has to show: nodes that start together, a database from a newer
/// Parlor, group commit over the network, a database that goes away and comes back, files shared
/// through the database. (The behaviour every store shares runs against it in the store suites,
/// through `DurableStore`.) Skipped, saying why, only where PostgreSQL is not installed.
@Suite(.enabled(if: TestPostgres.unavailableReason == nil, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
struct PostgresStoreTests {
    @Test func nodesStartingTogetherMigrateOnceAndShareOneDatabase() async throws {
        try await DurableStore.postgres.withPlace { place in
            let stores = try await withThrowingTaskGroup(of: (any ParlorStore).self) { group in
                for _ in 0..<4 { group.addTask { try await place.open() } }
                return try await group.reduce(into: [any ParlorStore]()) { $0.append($1) }
            }
            #expect(try await place.count("parlor_schema") == PostgresSchema.supportedVersion)
            let room = try StoreFixtures.room(StoreFixtures.code(1), players: [StoreFixtures.user(1)])
            try await stores[0].saveRoom(room)
            #expect(try await stores[3].loadRooms() == [room])
            let secrets = try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for store in stores { group.addTask { try await store.serverSecret() } }
                return try await group.reduce(into: Set<[UInt8]>()) { $0.insert($1) }
            }
            #expect(secrets.count == 1, "every node signs tokens with the same secret")
            for store in stores { await store.close() }
        }
    }

    @Test func aDatabaseFromANewerParlorIsRefused() async throws {
        try await DurableStore.postgres.withPlace { place in
            try await place.open().close()
            try await place.execute("INSERT INTO parlor_schema (version) VALUES (99)")
            let error = await storeError { _ = try await place.open() }
            #expect(error?.kind == .newerSchema(found: 99, supported: PostgresSchema.supportedVersion))
            #expect(error?.reason.contains("newer Parlor") == true)
        }
    }

    @Test func concurrentSavesFromManyGamesShareTransactions() async throws {
        try await DurableStore.postgres.withPlace { place in
            let store = try #require(try await place.open() as? PostgresStore)
            let rooms = try (1...60).map { try StoreFixtures.room(StoreFixtures.code($0), players: [StoreFixtures.user($0)]) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for room in rooms { group.addTask { try await store.saveRoom(room) } }
                try await group.waitForAll()
            }
            #expect(try await store.loadRooms() == rooms.sorted { $0.id.rawValue < $1.id.rawValue })
            #expect(store.committedBatches < rooms.count, "\(store.committedBatches) transactions for \(rooms.count) saves")
            // Saves and deletes of one game in one batch: the last wins.
            async let saved: Void = store.saveRoom(try StoreFixtures.startedRoom(StoreFixtures.code(1), players: [StoreFixtures.user(1), StoreFixtures.user(2)]))
            async let deleted: Void = store.deleteRoom(StoreFixtures.code(2))
            _ = try await (saved, deleted)
            #expect(try await store.loadRooms().count == rooms.count - 1)
            await store.close()
        }
    }

    /// Under load a node's writer waits `commitDelay` before its next commit, as SQLite's does: after a
    /// commit of several saves with more queued, the queued ones wait for company.
    @Test func underLoadTheNextCommitWaitsForMoreSaves() async throws {
        try await DurableStore.postgres.withPlace { place in
            var configuration = StoreFixtures.configuration
            configuration.commitDelay = .seconds(3)
            let store = try #require(try await place.open(configuration) as? PostgresStore)
            let locker = try #require(try await place.open() as? PostgresStore)
            let (x, y) = (try StoreFixtures.room(StoreFixtures.code(1), players: [StoreFixtures.user(1)]),
                          try StoreFixtures.room(StoreFixtures.code(2), players: [StoreFixtures.user(2)]))
            try await store.saveRoom(x)
            try await store.saveRoom(y)
            let save = { (room: RummyRoom) in Task { try await store.saveRoom(room) } }
            let before = store.committedBatches
            // X's new version waits for X's row, held elsewhere: a batch of one in flight.
            let holdingX = try await RowHold.take(x.id.rawValue, in: locker)
            let holdingY = try await RowHold.take(y.id.rawValue, in: locker)
            let xSave = save(try StoreFixtures.startedRoom(x.id, players: [StoreFixtures.user(1), StoreFixtures.user(3)]))
            try await eventually { try await RowHold.waiting(in: locker) == 1 }
            // Y's new version and a new game queue behind it, then go as one batch, which waits for Y's row.
            let ySaves = [save(try StoreFixtures.startedRoom(y.id, players: [StoreFixtures.user(2), StoreFixtures.user(4)])),
                          save(try StoreFixtures.room(StoreFixtures.code(3), players: [StoreFixtures.user(5)]))]
            await eventually { store.pendingWrites == 2 }
            await holdingX.release()
            try await xSave.value
            try await eventually { try await RowHold.waiting(in: locker) == 1 && store.pendingWrites == 0 }
            #expect(store.committedBatches - before == 1)
            // A save arrives while that batch of two commits: writes outpace commits.
            let third = save(try StoreFixtures.room(StoreFixtures.code(4), players: [StoreFixtures.user(6)]))
            await eventually { store.pendingWrites == 1 }
            await holdingY.release()
            for task in ySaves { try await task.value }
            #expect(store.committedBatches - before == 2)
            // The writer waits instead of committing the third alone: later saves join it.
            let later = [save(try StoreFixtures.room(StoreFixtures.code(5), players: [StoreFixtures.user(7)])),
                         save(try StoreFixtures.room(StoreFixtures.code(6), players: [StoreFixtures.user(8)]))]
            await eventually { store.pendingWrites == 3 }
            #expect(store.committedBatches - before == 2)
            try await third.value
            for task in later { try await task.value }
            #expect(store.committedBatches - before == 3, "saves 4, 5 and 6 should have shared one commit")
            #expect(try await store.loadRooms().count == 6)
            await locker.close()
            await store.close()
        }
    }

    /// A quiet writer never waits, whatever `commitDelay` says: not after a batch of one, nor after a
    /// batch of several with nothing queued behind it.
    @Test(.timeLimit(.minutes(1)))
    func aQuietWriterNeverWaits() async throws {
        try await DurableStore.postgres.withPlace { place in
            var configuration = StoreFixtures.configuration
            configuration.commitDelay = .seconds(3600)
            let store = try #require(try await place.open(configuration) as? PostgresStore)
            let locker = try #require(try await place.open() as? PostgresStore)
            let x = try StoreFixtures.room(StoreFixtures.code(1), players: [StoreFixtures.user(1)])
            for number in 1...3 {
                try await store.saveRoom(try StoreFixtures.room(StoreFixtures.code(number), players: [StoreFixtures.user(number)]))
            }
            let holdingX = try await RowHold.take(x.id.rawValue, in: locker)
            let xSave = Task { try await store.saveRoom(try StoreFixtures.startedRoom(x.id, players: [StoreFixtures.user(1), StoreFixtures.user(9)])) }
            try await eventually { try await RowHold.waiting(in: locker) == 1 }
            let queued = (4...5).map { number in
                Task { try await store.saveRoom(try StoreFixtures.room(StoreFixtures.code(number), players: [StoreFixtures.user(number)])) }
            }
            await eventually { store.pendingWrites == 2 }
            await holdingX.release()
            try await xSave.value
            for task in queued { try await task.value }
            // The batch of two had nothing behind it: the next save starts a batch at once.
            try await store.saveRoom(try StoreFixtures.room(StoreFixtures.code(6), players: [StoreFixtures.user(6)]))
            #expect(try await store.loadRooms().count == 6)
            await locker.close()
            await store.close()
        }
    }

    /// A game's row held by a transaction on a connection of its own, until released: a node's
    /// writer that saves the game waits for it.
    private struct RowHold {
        let gate: StuckCall
        let holder: Task<Void, any Error>

        static func take(_ code: String, in store: PostgresStore) async throws -> RowHold {
            let gate = StuckCall()
            let held = Mutex(false)
            let holder = Task {
                try await store.pool.withConnection("Holding game \(code)'s row", callTimeout: .seconds(60)) { connection in
                    _ = try await connection.query("BEGIN", logger: .quiet).collect()
                    _ = try await connection.query("SELECT 1 FROM games WHERE code = \(code) OR id = \(code) FOR UPDATE", logger: .quiet).collect()
                    held.withLock { $0 = true }
                    await gate.wait()
                    _ = try await connection.query("COMMIT", logger: .quiet).collect()
                }
            }
            await eventually { held.withLock { $0 } }
            return RowHold(gate: gate, holder: holder)
        }

        /// Lets go of the row, once its transaction has ended.
        func release() async {
            gate.release()
            _ = await holder.result
        }

        /// Sessions of this database (not another test's) waiting for a lock.
        static func waiting(in store: PostgresStore) async throws -> Int {
            try await store.pool.withConnection("Counting lock waits") { connection in
                var count = 0
                for try await (waiting,) in try await connection.query(
                    "SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'", logger: .quiet)
                    .decode((Int,).self) { count = waiting }
                return count
            }
        }
    }

    @Test func aSaveCommitsOnlyOverTheVersionItReplaces() async throws {
        try await DurableStore.postgres.withPlace { place in
            let one = try await place.open()
            let two = try await place.open()
            let players = [StoreFixtures.user(1), StoreFixtures.user(2)]
            let open = try StoreFixtures.room(StoreFixtures.code(1), players: players)
            try await one.saveGame(Self.stored(open, replacing: .nothing))
            let taken = await storeError { try await two.saveGame(Self.stored(open, replacing: .nothing)) }
            #expect(taken?.kind == .conflict, "a new game whose id is taken")
            var sameCode = try Self.stored(try StoreFixtures.room(StoreFixtures.code(1), players: players), replacing: .nothing)
            sameCode.id = "another-id"
            let codeTaken = await storeError { try await two.saveGame(sameCode) }
            #expect(codeTaken?.kind == .conflict, "a new game whose code another node gave out")
            let started = try StoreFixtures.startedRoom(StoreFixtures.code(1), players: players)
            let finished = try StoreFixtures.finishedRoom(StoreFixtures.code(1), players: players, finishedAt: StoreFixtures.instant(9_000))
            // Two nodes both replace the version they read: the first wins, the second changes nothing —
            // not even history, though it carried the finished game's archive.
            try await one.saveGame(Self.stored(started, replacing: .version(open.version)))
            let lost = await storeError { try await two.saveRoomFinishing(finished, replacing: open.version) }
            #expect(lost?.kind == .conflict)
            #expect(lost?.summary == "another node changed the game first")
            #expect(try await two.loadGame(RummyGame.kind, id: open.id.rawValue)?.room == started)
            #expect(try await place.count("history") == 0)
            // Over the version that is stored, it commits.
            try await two.saveRoomFinishing(finished, replacing: started.version)
            try await two.saveGame(Self.stored(try StoreFixtures.room(StoreFixtures.code(2), players: players), replacing: .nothing))
            let stale = await storeError { try await one.saveGame(Self.stored(started, replacing: .version(open.version))) }
            #expect(stale?.kind == .conflict)
            #expect(try await one.loadRooms().map(\.id) == [StoreFixtures.code(1), StoreFixtures.code(2)])
            #expect(try await place.count("history") == 1)
            await one.close()
            await two.close()
        }
    }

    /// A node deletes a game as of the version it holds: when another node changed it meanwhile, the
    /// delete changes nothing and says so, as a save that lost its race does; a delete of a game
    /// already gone says so too. Deleting whatever is stored (an operator's tool) still works.
    @Test func aDeleteRemovesOnlyTheVersionItNames() async throws {
        try await DurableStore.postgres.withPlace { place in
            let one = try await place.open()
            let two = try await place.open()
            let players = [StoreFixtures.user(1), StoreFixtures.user(2)]
            let open = try StoreFixtures.room(StoreFixtures.code(1), players: players)
            let started = try StoreFixtures.startedRoom(StoreFixtures.code(1), players: players)
            try await one.saveGame(Self.stored(open, replacing: .nothing))
            try await two.saveGame(Self.stored(started, replacing: .version(open.version)))
            let stale = await storeError { try await one.deleteGame(RummyGame.kind, id: open.id.rawValue, version: open.version) }
            #expect(stale?.kind == .conflict, "node one read the room before node two started it")
            #expect(try await one.loadGame(RummyGame.kind, id: open.id.rawValue)?.room == started)
            try await one.deleteGame(RummyGame.kind, id: open.id.rawValue, version: started.version)
            #expect(try await two.loadGame(RummyGame.kind, id: open.id.rawValue) == nil)
            let gone = await storeError { try await two.deleteGame(RummyGame.kind, id: open.id.rawValue, version: started.version) }
            #expect(gone?.kind == .conflict, "deleted by the other node first")
            try await two.saveGame(Self.stored(try StoreFixtures.room(StoreFixtures.code(2), players: players), replacing: .nothing))
            try await one.deleteGame(RummyGame.kind, id: StoreFixtures.code(2).rawValue)
            #expect(try await one.loadRooms().isEmpty)
            await one.close()
            await two.close()
        }
    }

    static func stored(_ room: RummyRoom, replacing: StoredGame.Replacing) throws -> StoredGame {
        StoredGame(
            kind: RummyGame.kind, id: room.id.rawValue, code: room.id.rawValue, version: room.version,
            state: .value(StoredGameState<RummyGame>(room)), schedule: StoredGame.emptySchedule, replacing: replacing)
    }

    @Test func anUnreachableDatabaseFailsStartUpAsUnreachable() async throws {
        // Port 1 on loopback: nothing listens there, so every connection is refused.
        let location = PostgresLocation(host: "127.0.0.1", port: 1, username: "parlor", database: "nothing")
        let clock = ContinuousClock()
        let started = clock.now
        let error = await storeError { _ = try await PostgresStore(location: location, logger: .quiet, leaseTimeout: .seconds(1)) }
        #expect(error?.kind == .unreachable)
        #expect(error?.reason.contains("127.0.0.1:1") == true)
        #expect(clock.now - started < .seconds(30), "start-up gives up instead of waiting for the database")
    }

    @Test func whileTheDatabaseIsDownWritesFailAsUnreachableAndAfterItReturnsTheySucceed() async throws {
        let server = try #require(try await TestPostgres.startDedicated())
        let database = try await server.makeDatabase()
        let store = try await PostgresStore(
            location: try PostgresLocation(parsing: server.address(database)), logger: .quiet, leaseTimeout: .seconds(1))
        let before = try StoreFixtures.room(StoreFixtures.code(1), players: [StoreFixtures.user(1)])
        try await store.saveRoom(before)

        try await server.stop()
        let during = try StoreFixtures.room(StoreFixtures.code(2), players: [StoreFixtures.user(2)])
        let failed = await storeError { try await store.saveRoom(during) }
        #expect(failed?.kind == .unreachable)
        #expect(failed?.summary == "the database cannot be reached")
        #expect(await storeError { try await store.checkWritable() }?.kind == .unreachable)

        try await server.start()
        await eventually(timeout: .seconds(30)) { (try? await store.saveRoom(during)) != nil }
        #expect(try await store.loadRooms() == [before, during])
        await store.close()
        try await server.stop()
    }

    /// A call whose connection stops answering — seen after a database restart: the query never
    /// fails, even once its connection is closed — is answered at its time limit, so the caller (a
    /// node's writer, and every save queued behind it) goes on.
    @Test func aCallStuckOnItsConnectionIsAnsweredAtItsTimeLimit() async throws {
        try await DurableStore.postgres.withPlace { place in
            let store = try #require(try await place.open() as? PostgresStore)
            let stuck = StuckCall()
            let clock = ContinuousClock()
            let started = clock.now
            let error = await storeError {
                _ = try await store.pool.withConnection("A stuck call", callTimeout: .seconds(1)) { _ in await stuck.wait() }
            }
            #expect(clock.now - started < .seconds(20), "answered at its limit, not when the call ends")
            #expect(error?.kind == .unreachable)
            #expect(error?.reason.contains("did not finish within 1") == true, "\(String(describing: error))")
            #expect(error?.reason.contains("Whether it was applied is not known") == true)
            stuck.release()
            // The pool serves calls again (the one after may still be handed the closed connection,
            // and fail as unreachable, before the pool has replaced it).
            let room = try StoreFixtures.room(StoreFixtures.code(1), players: [StoreFixtures.user(1)])
            await eventually(timeout: .seconds(8)) { (try? await store.saveRoom(room)) != nil }
            #expect(try await store.loadRooms() == [room])
            await store.close()
        }
    }

    /// postgres-nio never answers a query written to a connection that has closed; a call whose
    /// connection closes under it is answered when it closes, not at its time limit.
    @Test func aCallWhoseConnectionClosesIsAnsweredAtOnce() async throws {
        try await DurableStore.postgres.withPlace { place in
            let store = try #require(try await place.open() as? PostgresStore)
            let clock = ContinuousClock()
            let started = clock.now
            let error = await storeError {
                _ = try await store.pool.withConnection("A call that loses its connection", callTimeout: .seconds(60)) { connection in
                    try await connection.close()
                    return try await connection.query("SELECT 1", logger: .quiet).collect().count
                }
            }
            #expect(clock.now - started < .seconds(30), "answered when its connection closed")
            #expect(error?.kind == .unreachable)
            #expect(error?.reason.contains("lost its connection") == true, "\(String(describing: error))")
            let room = try StoreFixtures.room(StoreFixtures.code(1), players: [StoreFixtures.user(1)])
            await eventually(timeout: .seconds(8)) { (try? await store.saveRoom(room)) != nil }
            #expect(try await store.loadRooms() == [room])
            // Watching for closes costs nothing per call once the call is over.
            for _ in 0..<200 { _ = try await store.loadRooms() }
            let watched = store.pool.watchedCounts
            #expect(watched.calls == 0 && watched.connections <= 8, "\(watched)")
            await store.close()
        }
    }

    /// A wait that ignores cancellation, as a query on a dead connection did, until released.
    private final class StuckCall: Sendable {
        /// Released, or the waiter to release.
        private let state = Mutex<(released: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

        func wait() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let released = state.withLock { state in
                    if !state.released { state.waiter = continuation }
                    return state.released
                }
                if released { continuation.resume() }
            }
        }

        func release() {
            state.withLock { state in
                state.released = true
                return state.waiter.take()
            }?.resume()
        }
    }

    @Test func aFileSavedThroughOneNodeIsServedByAnother() async throws {
        try await DurableStore.postgres.withPlace { place in
            let (one, two) = (try #require(try await place.open() as? PostgresStore), try #require(try await place.open() as? PostgresStore))
            let (first, second) = (PostgresObjectStorage(store: one, bucket: "avatars"), PostgresObjectStorage(store: two, bucket: "avatars"))
            let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0x00]
            try await first.write(bytes, folder: "user-1", name: "a.png")
            #expect(try await second.read(folder: "user-1", name: "a.png") == bytes)
            #expect(try await second.list(folder: "user-1") == ["a.png"])
            #expect(try await second.read(folder: "user-1", name: "b.png") == nil)
            try await first.write([1, 2, 3], folder: "user-1", name: "a.png")
            #expect(try await second.read(folder: "user-1", name: "a.png") == [1, 2, 3])
            try await second.remove(folder: "user-1", name: "a.png")
            #expect(try await first.list(folder: "user-1").isEmpty)
            #expect(try await PostgresObjectStorage(store: one, bucket: "photos").list(folder: "user-1").isEmpty)
            await one.close()
            await two.close()
        }
    }

    @Test func aQuizPhotoSavedThroughOneNodeIsServedTileByTileByAnother() async throws {
        try await DurableStore.postgres.withPlace { place in
            let one = try #require(try await place.open() as? PostgresStore)
            let two = try #require(try await place.open() as? PostgresStore)
            let (first, second) = (
                PostgresQuizPhotoStore(files: PostgresObjectStorage(store: one, bucket: "quiz-photos")),
                PostgresQuizPhotoStore(files: PostgresObjectStorage(store: two, bucket: "quiz-photos"))
            )
            let tiles = (0..<QuizLimits.tileCount).map { index in [UInt8](repeating: UInt8(index), count: 100 + index) }
            let files = QuizPhotoFiles(
                image: [0xFF, 0xD8, 0x01, 0x02, 0xFF, 0xD9], tiles: tiles,
                previews: TilePreviews(width: 1, height: 1, tiles: tiles.map { _ in "AAAA" }))
            let (quiz, photo) = ("quiz-1", "photo-1")
            try await first.save(files, quiz: quiz, photo: photo)
            #expect(try await second.image(quiz: quiz, photo: photo) == files.image)
            for index in tiles.indices {
                #expect(try await second.tile(index, quiz: quiz, photo: photo) == tiles[index])
            }
            #expect(try await second.tile(QuizLimits.tileCount, quiz: quiz, photo: photo) == nil)
            #expect(try await second.previews(quiz: quiz, photo: photo) == files.previews)
            #expect(try await second.image(quiz: quiz, photo: "photo-2") == nil)
            #expect(try await second.quizzes() == [quiz])
            #expect(await storeError { _ = try await second.image(quiz: "../etc", photo: photo) }?.kind == .failed)
            try await first.save(files, quiz: quiz, photo: "photo-2")
            try await second.removePhoto(quiz: quiz, photo: photo)
            #expect(try await first.image(quiz: quiz, photo: photo) == nil)
            #expect(try await first.image(quiz: quiz, photo: "photo-2") == files.image)
            try await second.removeQuiz(quiz)
            #expect(try await first.quizzes().isEmpty)
            // A row that is not a whole photo is reported, not served.
            try await first.save(files, quiz: quiz, photo: photo)
            try await place.execute("UPDATE files SET bytes = substring(bytes FROM 1 FOR 40) WHERE bucket = 'quiz-photos'")
            #expect(await storeError { _ = try await second.tile(3, quiz: quiz, photo: photo) }?.kind == .corrupt)
            await one.close()
            await two.close()
        }
    }

    @Test func aClientIsToldUnavailableWhenTheDatabaseCannotBeReached() async throws {
        let server = try #require(try await TestPostgres.startDedicated())
        let database = try await server.makeDatabase()
        let store = try await PostgresStore(
            location: try PostgresLocation(parsing: server.address(database)), logger: .quiet, leaseTimeout: .seconds(1))
        try await withParlor(store: store) { parlor in
            try await parlor.connect { client in
                let created = try await client.call(
                    "createRoom", ["pointLimit": 100, "pointValue": 25, "playerCount": 2, "playerName": "Ann"])
                #expect(created["result"] != nil, "\(created)")
                try await server.stop()
                let refused = try await client.call(
                    "createRoom", ["pointLimit": 100, "pointValue": 25, "playerCount": 2, "playerName": "Ann"])
                #expect(refused.errorCode == "UNAVAILABLE" && refused.errorStatus == "unavailable", "\(refused)")
                #expect(refused.errorMessage?.contains("database") == true)
            }
        }
        await store.close()
    }
}

/// Addresses as operators write them.
@Suite struct PostgresLocationTests {
    @Test func aFullAddressIsRead() throws {
        let location = try PostgresLocation(parsing: "postgres://parlor:s%40cret@db.example:6543/games")
        #expect(location == PostgresLocation(host: "db.example", port: 6543, username: "parlor", password: "s@cret", database: "games"))
        #expect(location.description == "postgres://parlor@db.example:6543/games", "no password in logs")
        #expect(try PostgresLocation(parsing: "postgresql://me@localhost/parlor").port == 5432)
    }

    @Test(arguments: [
        ("mysql://me@host/db", "not a postgres:// address"),
        ("postgres://host/db", "names no user"),
        ("postgres://me@host", "names no database"),
        ("postgres://me@host/db?sslmode=require", "options Parlor does not read"),
        ("postgres://me:hunter2@/db", "names no host"),
    ])
    func aBadAddressSaysWhatIsWrong(_ address: String, _ complaint: String) {
        #expect {
            try PostgresLocation(parsing: address)
        } throws: { error in
            let text = "\(error)"
            return text.contains(complaint) && !text.contains("hunter2")
        }
    }
}

extension ParlorStore {
    /// Saves a finished room with its archive, replacing `version`.
    func saveRoomFinishing(_ room: RummyRoom, replacing version: Int) async throws(StoreError) {
        try await saveGame(StoredGame(
            kind: RummyGame.kind, id: room.id.rawValue, code: room.id.rawValue, version: room.version,
            state: .value(StoredGameState<RummyGame>(room)), schedule: StoredGame.emptySchedule,
            archive: GameArchive(key: room.historyKey, players: room.members, finishedAt: room.finishedAt ?? room.createdAt),
            replacing: .version(version)))
    }
}
#endif
