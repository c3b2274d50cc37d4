import Foundation
import ParlorSQLite
import Testing
@testable import ParlorServer

/// Start-up: creating, migrating and refusing data directories.
@Suite struct SQLiteStoreOpeningTests {
    @Test func anEmptyDirectoryGetsTheWholeSchemaAndItsVersion() async throws {
        try await withTemporaryDirectory { root in
            let directory = root + "/nested/data"
            let store = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            #expect(store.databasePath == directory + "/parlor.sqlite")
            await store.close()

            try SQLiteFile.read(directory + "/parlor.sqlite") { db in
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
                for table in ["games", "history", "history_players", "catalogs", "secrets"] {
                    #expect(tables.contains(table), "missing table \(table)")
                }
                let indexes = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'history_players'")
                #expect(indexes.contains("history_players_by_user"))
                #expect(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") == SQLiteSchema.migrator.identifiers)
                #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == SQLiteSchema.supportedVersion)
                #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
            }
        }
    }

    @Test func reopeningADatabaseOfAPreviousRunKeepsItsDataAndMigratesNothingTwice() async throws {
        try await withTemporaryDirectory { directory in
            let room = try StoreFixtures.room(StoreFixtures.code(1), players: [StoreFixtures.user(1)])
            let first = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            try await first.saveRoom(room)
            let secret = try await first.serverSecret()
            await first.close()

            for _ in 0..<2 {
                let again = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
                #expect(try await again.loadRooms() == [room])
                #expect(try await again.serverSecret() == secret)
                await again.close()
            }
            let applied = try SQLiteFile.read(directory + "/parlor.sqlite") { db in
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
            }
            #expect(applied == SQLiteSchema.migrator.identifiers)
        }
    }

    @Test func aDatabaseFromANewerParlorIsRefusedWithBothVersions() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            await store.close()
            try SQLiteFile.write(directory + "/parlor.sqlite") { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v\(SQLiteSchema.supportedVersion + 1)-tournaments')")
            }

            let error = try #require(throws: StoreError.self) {
                try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            }
            #expect(error.kind == .newerSchema(found: SQLiteSchema.supportedVersion + 1, supported: SQLiteSchema.supportedVersion))
            #expect(error.reason.contains("written by a newer Parlor (schema \(SQLiteSchema.supportedVersion + 1))"))
            #expect(error.reason.contains("supports up to \(SQLiteSchema.supportedVersion)"))
            #expect(error.reason.contains(directory + "/parlor.sqlite"))
        }
    }

    @Test func aNewerUserVersionAloneIsAlsoRefused() async throws {
        try await withTemporaryDirectory { directory in
            let newer = SQLiteSchema.supportedVersion + 1
            try SQLiteFile.write(directory + "/parlor.sqlite") { db in try db.execute(sql: "PRAGMA user_version = \(newer)") }
            let error = try #require(throws: StoreError.self) {
                try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            }
            #expect(error.kind == .newerSchema(found: newer, supported: SQLiteSchema.supportedVersion))
        }
    }

    @Test func aFileThatIsNotADatabaseIsReportedAsCorruptAndLeftAlone() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory + "/parlor.sqlite"
            let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            try garbage.write(to: URL(fileURLWithPath: file))

            let error = try #require(throws: StoreError.self) {
                try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            }
            #expect(error.kind == .corrupt)
            #expect(error.reason.contains(file))
            #expect(error.reason.contains("move the file"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == garbage, "the store must not write over it")
        }
    }

    @Test func aDamagedPageIsFoundAtStartUp() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            for number in 0..<200 {
                try await store.saveRoom(try StoreFixtures.room(StoreFixtures.code(number), players: [StoreFixtures.user(number)]))
            }
            await store.close()
            // Fold the WAL into the file, then scribble over the root page of the games table.
            let (rootPage, pageSize) = try SQLiteFile.open(directory + "/parlor.sqlite") { db in
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                return (try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'games'") ?? 0,
                        try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
            }
            try #require(rootPage > 1 && pageSize > 0)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/parlor.sqlite"))
            try handle.seek(toOffset: UInt64((rootPage - 1) * pageSize))
            try handle.write(contentsOf: Data(repeating: 0xA5, count: pageSize))
            try handle.close()

            let error = try #require(throws: StoreError.self) {
                try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            }
            #expect(error.kind == .corrupt)
            #expect(error.reason.contains(directory + "/parlor.sqlite"))
        }
    }

    @Test func aDirectoryThatCannotBeCreatedIsUnavailableWithTheReason() async throws {
        try await withTemporaryDirectory { root in
            // A path under a regular file fails for every user, root included (chmod does not stop root).
            let file = root + "/not-a-directory"
            try Data("x".utf8).write(to: URL(fileURLWithPath: file))

            let error = try #require(throws: StoreError.self) {
                try SQLiteStore(directory: file + "/data", configuration: StoreFixtures.configuration)
            }
            #expect(error.kind == .unavailable)
            #expect(error.reason.contains(file + "/data"))
            #expect(error.reason.contains("is not a directory"))
        }
    }

    @Test(.enabled(if: geteuid() != 0, "root ignores directory permissions; the test above covers root"))
    func aDirectoryWithoutWritePermissionIsUnavailable() async throws {
        try await withTemporaryDirectory { root in
            let locked = root + "/locked"
            try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
            try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: locked)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: locked) }

            let error = try #require(throws: StoreError.self) {
                try SQLiteStore(directory: locked + "/data", configuration: StoreFixtures.configuration)
            }
            #expect(error.kind == .unavailable)
            #expect(error.reason.contains("Permission denied"))
        }
    }

    @Test(arguments: SQLiteStoreConfiguration.Synchronous.allCases)
    func theWriterUsesTheConfiguredSynchronousSetting(_ synchronous: SQLiteStoreConfiguration.Synchronous) async throws {
        try await withTemporaryDirectory { directory in
            var configuration = StoreFixtures.configuration
            configuration.synchronous = synchronous
            let store = try SQLiteStore(directory: directory, configuration: configuration)
            let value = try await store.write("Reading synchronous") { db in
                try Int.fetchOne(db, sql: "PRAGMA synchronous")
            }
            // SQLite reports 1 for NORMAL and 2 for FULL.
            #expect(value == (synchronous == .full ? 2 : 1))
            let foreignKeys = try await store.write("Reading foreign_keys") { db in
                try Int.fetchOne(db, sql: "PRAGMA foreign_keys")
            }
            #expect(foreignKeys == 1)
            await store.close()
        }
    }

    @Test func theDefaultIsFullDurability() {
        #expect(SQLiteStoreConfiguration().synchronous == .full)
    }
}
