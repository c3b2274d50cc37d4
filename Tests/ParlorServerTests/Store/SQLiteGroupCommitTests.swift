import Foundation
import ParlorSQLite
import ParlorRules
import ParlorTestSupport
import Synchronization
import Testing
@testable import ParlorServer

/// Group commit: concurrent writes share transactions, and every caller learns its own outcome.
@Suite struct SQLiteGroupCommitTests {
    @Test func fiveHundredConcurrentSavesAreAllDurableInFarFewerTransactions() async throws {
        try await withTemporaryDirectory { directory in
            let rooms = try (0..<500).map { number in
                try StoreFixtures.startedRoom(
                    StoreFixtures.code(number), players: (0..<8).map { StoreFixtures.user(number * 8 + $0) })
            }
            let store = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            let before = store.committedBatches
            try await withThrowingTaskGroup(of: Void.self) { group in
                for room in rooms {
                    group.addTask { try await store.saveRoom(room) }
                }
                try await group.waitForAll()
            }
            let batches = store.committedBatches - before
            #expect(batches >= 1)
            #expect(batches < 100, "500 concurrent saves took \(batches) transactions: writes are not being batched")
            await store.close()

            let reopened = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            let loaded = try await reopened.loadRooms()
            #expect(loaded.count == 500)
            #expect(Dictionary(uniqueKeysWithValues: loaded.map { ($0.id, $0) })
                    == Dictionary(uniqueKeysWithValues: rooms.map { ($0.id, $0) }))
            await reopened.close()
        }
    }

    @Test func sequentialSavesEachCommitTheirOwnBatch() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            let before = store.committedBatches
            for number in 0..<5 {
                try await store.saveRoom(try StoreFixtures.room(StoreFixtures.code(number), players: [StoreFixtures.user(number)]))
            }
            // The counter counts transactions, so a caller that waits for each write sees one per write.
            #expect(store.committedBatches - before == 5)
            await store.close()
        }
    }

    @Test func writesToTheSameRoomInOneBatchEndWithTheLastAndResumeEveryCaller() async throws {
        try await withTemporaryDirectory { directory in
            let players = (1...3).map(StoreFixtures.user)
            var versions = [try StoreFixtures.room(StoreFixtures.code(1), players: players)]
            var room = try StoreFixtures.startedRoom(StoreFixtures.code(1), players: players)
            for round in 0..<30 {
                _ = try room.apply(.submitScore(playerId: players[0], round: 1, score: round + 100), by: players[0], at: .epoch)
                versions.append(room)
            }
            let store = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            let gate = try await WriterGate.hold(store)
            var saves: [Task<Void, any Error>] = []
            for (index, version) in versions.enumerated() {
                saves.append(Task { try await store.saveRoom(version) })
                // Queue them one at a time so their order is known.
                await eventually { store.pendingWrites == index + 1 }
            }
            let before = store.committedBatches
            try await gate.release()
            for save in saves { try await save.value }
            #expect(store.committedBatches - before == 1, "all queued saves should have shared one batch")
            #expect(try await store.loadRooms() == [room])
            await store.close()
        }
    }

    @Test func underLoadTheNextCommitWaitsForMoreWrites() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = StoreFixtures.configuration
            configuration.commitDelay = .seconds(3)
            let store = try SQLiteStore(directory: directory, configuration: configuration)
            let commit = try await CommitGate.install(in: store)
            let save = { (number: Int) in
                Task { try await store.saveRoom(try StoreFixtures.room(StoreFixtures.code(number), players: [StoreFixtures.user(number)])) }
            }
            let before = store.committedBatches
            // A batch of two is committing while a third write arrives: writes outpace the disk.
            // The writer is parked until both are queued, so they cannot go in batches of one.
            let writer = try await WriterGate.hold(store)
            let first = save(1)
            await eventually { store.pendingWrites == 1 }
            let firstTwo = [first, save(2)]
            await eventually { store.pendingWrites == 2 }
            try await writer.release()
            await eventually { commit.isHeld }
            await eventually { store.pendingWrites == 0 }
            let third = save(3)
            await eventually { store.pendingWrites == 1 }
            commit.release()
            for task in firstTwo { try await task.value }
            #expect(store.committedBatches - before == 1)
            // The writer lingers instead of committing the third alone: later writes join it.
            let later = [save(4), save(5)]
            await eventually { store.pendingWrites == 3 }
            #expect(store.committedBatches - before == 1)
            try await third.value
            for task in later { try await task.value }
            #expect(store.committedBatches - before == 2, "writes 3, 4 and 5 should have shared one commit")
            #expect(try await store.loadRooms().count == 5)
            await store.close()
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aQuietWriterNeverWaits() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = StoreFixtures.configuration
            configuration.commitDelay = .seconds(3600)
            let store = try SQLiteStore(directory: directory, configuration: configuration)
            // One at a time: each batch holds one write, so none is followed by a wait.
            for number in 0..<5 {
                try await store.saveRoom(try StoreFixtures.room(StoreFixtures.code(number), players: [StoreFixtures.user(number)]))
            }
            // A batch of several with nothing queued behind it: the next write starts a batch at once.
            let gate = try await WriterGate.hold(store)
            let queued = (5..<8).map { number in
                Task { try await store.saveRoom(try StoreFixtures.room(StoreFixtures.code(number), players: [StoreFixtures.user(number)])) }
            }
            await eventually { store.pendingWrites == 3 }
            try await gate.release()
            for task in queued { try await task.value }
            try await store.saveRoom(try StoreFixtures.room(StoreFixtures.code(8), players: [StoreFixtures.user(8)]))
            #expect(try await store.loadRooms().count == 9)
            await store.close()
        }
    }

    @Test func readsDoNotWaitForTheWriter() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            let room = try StoreFixtures.room(StoreFixtures.code(1), players: [StoreFixtures.user(1)])
            try await store.saveRoom(room)
            let gate = try await WriterGate.hold(store)
            let queued = Task { try await store.deleteRoom(StoreFixtures.code(1)) }
            await eventually { store.pendingWrites == 1 }
            // The writer is parked with a write queued behind it; reads see the last commit meanwhile.
            #expect(try await store.loadRooms() == [room])
            #expect(try await store.finishedGames(of: StoreFixtures.user(1), before: nil, limit: 5).isEmpty)
            try await gate.release()
            try await queued.value
            #expect(try await store.loadRooms().isEmpty)
            await store.close()
        }
    }

    @Test func closeFinishesQueuedWritesAndRefusesLaterOnes() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            let gate = try await WriterGate.hold(store)
            let queued = (0..<20).map { number in
                Task {
                    try await store.saveRoom(try StoreFixtures.room(StoreFixtures.code(number), players: [StoreFixtures.user(number)]))
                }
            }
            await eventually { store.pendingWrites == 20 }
            let closing = Task { await store.close() }
            await eventually { store.isClosing }
            let late = await storeError {
                try await store.saveRoom(try StoreFixtures.room(StoreFixtures.code(99), players: [StoreFixtures.user(99)]))
            }
            #expect(late?.kind == .unavailable)
            #expect(late?.reason.contains("Saving room R00099") == true)
            #expect(late?.reason.contains("closed") == true)
            try await gate.release()
            for task in queued { try await task.value }
            await closing.value

            let reopened = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            #expect(try await reopened.loadRooms().count == 20)
            await reopened.close()
        }
    }

    @Test func aFullQueueRefusesWritesInsteadOfGrowing() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = StoreFixtures.configuration
            configuration.maxPendingWrites = 5
            let store = try SQLiteStore(directory: directory, configuration: configuration)
            let gate = try await WriterGate.hold(store)
            let queued = (0..<5).map { number in
                Task { try await store.saveRoom(try StoreFixtures.room(StoreFixtures.code(number), players: [StoreFixtures.user(number)])) }
            }
            await eventually { store.pendingWrites == 5 }
            let refused = await storeError {
                try await store.saveRoom(try StoreFixtures.room(StoreFixtures.code(6), players: [StoreFixtures.user(6)]))
            }
            #expect(refused?.kind == .unavailable)
            #expect(refused?.reason.contains("5 writes are already waiting") == true)
            try await gate.release()
            for task in queued { try await task.value }
            #expect(try await store.loadRooms().count == 5)
            // Once the queue drains, writes are accepted again.
            try await store.saveRoom(try StoreFixtures.room(StoreFixtures.code(6), players: [StoreFixtures.user(6)]))
            await store.close()
        }
    }
}

/// Parks the store's writer thread inside a write until the test releases it: a way to make writes
/// gather into one batch without depending on how fast the disk is.
final class WriterGate: Sendable {
    private let held = DispatchSemaphore(value: 0)
    private let opened = DispatchSemaphore(value: 0)
    private let holder: Task<Void, any Error>

    private init(_ store: SQLiteStore) {
        let (held, opened) = (held, opened)
        holder = Task {
            try await store.write("Holding the writer") { _ in
                held.signal()
                opened.wait()
            }
        }
    }

    /// Returns once the writer thread is parked.
    static func hold(_ store: SQLiteStore) async throws -> WriterGate {
        let gate = WriterGate(store)
        await eventually { gate.held.wait(timeout: .now()) == .success }
        return gate
    }

    func release() async throws {
        opened.signal()
        try await holder.value
    }
}

/// Parks the writer thread inside its next commit (SQLite's commit hook) until the test releases it:
/// a batch is then being committed while later writes arrive.
final class CommitGate: @unchecked Sendable {
    private let opened = DispatchSemaphore(value: 0)
    let state = Mutex((isHeld: false, hasHeld: false, savesRoom: false))

    /// Installs the gate on the store's writer connection; it holds the first commit that saves a room.
    static func install(in store: SQLiteStore) async throws -> CommitGate {
        let gate = CommitGate()
        try await store.write("Installing the commit gate") { db in
            try db.observe(
                didChange: { table in if table == "games" { gate.state.withLock { $0.savesRoom = true } } },
                willCommit: gate.willCommit)
        }
        return gate
    }

    var isHeld: Bool { state.withLock { $0.isHeld } }

    func release() { opened.signal() }

    func willCommit() {
        let holds = state.withLock { state in
            // Only a commit that saves a room: not the one that installs the gate.
            guard !state.hasHeld, state.savesRoom else { return false }
            state.hasHeld = true
            state.isHeld = true
            return true
        }
        guard holds else { return }
        opened.wait()
        state.withLock { $0.isHeld = false }
    }
}
