import Foundation
import ParlorSQLite
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// A full disk fails the writes that hit it, and only those; the store carries on once there is room.
@Suite struct SQLiteDiskFullTests {
    @Test func aFullDatabaseFailsTheSaveAndRecoversWhenSpaceReturns() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = StoreFixtures.configuration
            // (48 pages: the schema itself takes the first few.) `max_page_count` makes SQLite answer SQLITE_FULL exactly as it does for a full disk
            // (about 160 KiB here: the schema and a few dozen rooms).
            configuration.prepareWriter = { db in try db.execute(sql: "PRAGMA max_page_count = 48") }
            let store = try SQLiteStore(directory: directory, configuration: configuration)

            var saved: [RummyRoom] = []
            var failure: StoreError?
            for number in 0..<1_000 {
                let room = try StoreFixtures.startedRoom(
                    StoreFixtures.code(number), players: (0..<8).map { StoreFixtures.user(number * 8 + $0) })
                if let error = await storeError({ try await store.saveRoom(room) }) {
                    failure = error
                    break
                }
                saved.append(room)
            }
            let error = try #require(failure, "the database never filled up")
            #expect(error.kind == .diskFull)
            #expect(error.reason.contains("Saving room"))
            #expect(error.reason.contains(store.databasePath))
            #expect(error.reason.contains("Free space"))
            #expect(saved.count > 5)

            // Reads still work, and everything acknowledged before is there.
            #expect(Set(try await store.loadRooms().map(\.id)) == Set(saved.map(\.id)))

            _ = try await store.write("Raising the page limit") { db in
                try db.execute(sql: "PRAGMA max_page_count = 1000000")
            }
            let later = try StoreFixtures.room(StoreFixtures.code(5_000), players: [StoreFixtures.user(1)])
            try await store.saveRoom(later)
            await store.close()

            let reopened = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            #expect(Set(try await reopened.loadRooms().map(\.id)) == Set((saved + [later]).map(\.id)))
            await reopened.close()
        }
    }

    @Test func everyCallerInAFailedBatchLearnsWhy() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = StoreFixtures.configuration
            configuration.prepareWriter = { db in try db.execute(sql: "PRAGMA max_page_count = 48") }
            let store = try SQLiteStore(directory: directory, configuration: configuration)
            let gate = try await WriterGate.hold(store)
            // Far more than 40 pages in one batch: the whole batch fails, and is not half-applied.
            let saves = (0..<200).map { number in
                Task {
                    await storeError {
                        try await store.saveRoom(try StoreFixtures.startedRoom(
                            StoreFixtures.code(number), players: (0..<8).map { StoreFixtures.user(number * 8 + $0) }))
                    }
                }
            }
            await eventually { store.pendingWrites == 200 }
            try await gate.release()
            for save in saves {
                let error = await save.value
                #expect(error?.kind == .diskFull)
                #expect(error?.reason.contains("in a batch of 200") == true)
            }
            #expect(try await store.loadRooms().isEmpty)
            await store.close()
        }
    }
}
