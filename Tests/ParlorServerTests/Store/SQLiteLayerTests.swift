import Dispatch
import Foundation
import ParlorSQLite
import Synchronization
import Testing

/// The store's SQLite layer on its own: arguments, values, errors, the pool's readers beside its
/// writer, closing, and migrations as GRDB recorded them.
@Suite struct SQLiteLayerTests {
    @Test func positionalAndNamedArgumentsBindAndEveryValueReadsBack() async throws {
        try await withTemporaryDirectory { directory in
            try SQLiteFile.open(directory + "/t.sqlite") { db in
                try db.execute(sql: "CREATE TABLE t (a TEXT, b INTEGER, c REAL, d BLOB, e TEXT)")
                try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?)", arguments: ["zoë 🎯", Int64.max, 0.5, Data([0, 1, 255]), nil])
                try db.execute(sql: "INSERT INTO t (a, b, d) VALUES (:name, :n, :empty)", arguments: ["name": "x", "n": 2, "empty": Data()])
                let rows = try SQLiteRow.fetchAll(db, sql: "SELECT * FROM t ORDER BY b DESC")
                #expect(rows.count == 2)
                #expect(try rows[0].decode(String.self, forColumn: "a") == "zoë 🎯")
                #expect(try rows[0].decode(Int64.self, forColumn: "B") == Int64.max, "names match as SQLite's do, case aside")
                #expect(try rows[0].decode(Double.self, forColumn: "c") == 0.5)
                #expect(try rows[0].decode(Data.self, forColumn: "d") == Data([0, 1, 255]))
                #expect(try rows[0].decode(String?.self, forColumn: "e") == nil)
                #expect(rows[1]["d"] == .blob([]), "an empty blob is not NULL")
                #expect(try Int.fetchAll(db, sql: "SELECT b FROM t WHERE a = ? OR a = ? ORDER BY b", arguments: ["x", "zoë 🎯"]) == [2, Int(Int64.max)])
                #expect(try String.fetchOne(db, sql: "SELECT a FROM t WHERE b = 0") == nil, "no row")
            }
        }
    }

    @Test func wrongArgumentsAndWrongTypesAreErrorsThatSayWhat() async throws {
        try await withTemporaryDirectory { directory in
            try SQLiteFile.open(directory + "/t.sqlite") { db in
                try db.execute(sql: "CREATE TABLE t (a TEXT NOT NULL, b INTEGER)")
                let tooFew = try #require(throws: SQLiteError.self) { try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: ["x"]) }
                #expect(tooFew.code == .misuse && tooFew.message.contains("placeholders"), "\(tooFew)")
                let tooMany = try #require(throws: SQLiteError.self) { try db.execute(sql: "INSERT INTO t VALUES (?, 1)", arguments: ["x", "y"]) }
                #expect(tooMany.code == .misuse, "\(tooMany)")
                let unnamed = try #require(throws: SQLiteError.self) { try db.execute(sql: "INSERT INTO t VALUES (:a, 1)", arguments: ["b": "x"]) }
                #expect(unnamed.message.contains("no argument is named a"), "\(unnamed)")
                let constraint = try #require(throws: SQLiteError.self) { try db.execute(sql: "INSERT INTO t VALUES (NULL, 1)") }
                #expect(constraint.code == .constraint && constraint.extendedCode == 1299, "SQLITE_CONSTRAINT_NOTNULL: \(constraint)")
                #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t") == 0, "nothing half-inserted")

                try db.execute(sql: "INSERT INTO t VALUES ('text', NULL)")
                let row = try #require(try SQLiteRow.fetchOne(db, sql: "SELECT a, b FROM t"))
                let wrongType = try #require(throws: SQLiteDecodingError.self) { try row.decode(Int.self, forColumn: "a") }
                #expect(wrongType.description == "column a holds text, not Int")
                #expect(throws: SQLiteDecodingError.self) { try row.decode(Int.self, forColumn: "b") }
                #expect(throws: SQLiteDecodingError.self) { try row.decode(String.self, forColumn: "missing") }
                #expect(throws: SQLiteDecodingError.self) { try Int.fetchAll(db, sql: "SELECT b FROM t") }
                #expect(try Int?.fetchAll(db, sql: "SELECT b FROM t") == [nil])
            }
        }
    }

    @Test func severalStatementsRunInOrderTakingTheirArgumentsInTurn() async throws {
        try await withTemporaryDirectory { directory in
            try SQLiteFile.open(directory + "/t.sqlite") { db in
                try db.execute(sql: """
                    CREATE TABLE t (a INTEGER); -- a comment between statements
                    INSERT INTO t VALUES (?); INSERT INTO t VALUES (?), (?);
                    """, arguments: [1, 2, 3])
                #expect(try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") == [1, 2, 3])
                let failing = try #require(throws: SQLiteError.self) {
                    try db.execute(sql: "INSERT INTO t VALUES (4); INSERT INTO nowhere VALUES (5)")
                }
                #expect(failing.message.contains("no such table: nowhere"), "\(failing)")
            }
        }
    }

    @Test func aTransactionThatThrowsLeavesNothingBehind() async throws {
        try await withTemporaryDirectory { directory in
            try SQLiteFile.open(directory + "/t.sqlite") { db in
                try db.execute(sql: "CREATE TABLE t (a INTEGER)")
                struct Refused: Error {}
                #expect(throws: Refused.self) {
                    try db.inTransaction {
                        try db.execute(sql: "INSERT INTO t VALUES (1)")
                        throw Refused()
                    }
                }
                #expect(!db.isInsideTransaction)
                #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t") == 0)
            }
        }
    }

    @Test func readersSeeTheLastCommitWhileTheWriterIsInsideATransaction() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = SQLitePoolConfiguration()
            configuration.readerCount = 2
            let pool = try SQLitePool(path: directory + "/t.sqlite", configuration: configuration)
            try await pool.write { db in
                try db.execute(sql: "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)")
            }
            // The writer holds an open transaction with an uncommitted row until the reads are done.
            let inside = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
            pool.asyncWriteWithoutTransaction { db in
                try? db.execute(sql: "BEGIN IMMEDIATE; INSERT INTO t VALUES (2)")
                inside.signal()
                done.wait()
                try? db.execute(sql: "COMMIT")
            }
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { inside.wait(); continuation.resume() }
            }
            // More reads at once than readers: the rest wait for one, none for the writer.
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 {
                    group.addTask { try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") ?? -1 } }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(counts == Array(repeating: 1, count: 6))
            done.signal()
            try await pool.write { _ in }  // queued behind the held transaction's COMMIT
            #expect(try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 2)
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { pool.close(); continuation.resume() }
            }
            let closed = await #expect(throws: SQLiteError.self) {
                try await pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
            }
            #expect(closed?.code == .misuse)
            await #expect(throws: SQLiteError.self) { try await pool.write { db in try db.execute(sql: "SELECT 1") } }
        }
    }

    @Test func closingWaitsForTheReadUnderWayAndFailsTheOnesWaitingForAReader() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = SQLitePoolConfiguration()
            configuration.readerCount = 1
            let pool = try SQLitePool(path: directory + "/t.sqlite", configuration: configuration)
            let inside = DispatchSemaphore(value: 0), finish = DispatchSemaphore(value: 0)
            let running = Task {
                try await pool.read { db in
                    inside.signal()
                    finish.wait()
                    return try Int.fetchOne(db, sql: "SELECT 42")
                }
            }
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { inside.wait(); continuation.resume() }
            }
            let waiting = Task { try await pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") } }
            while pool.waitingReads == 0 { try await Task.sleep(for: .milliseconds(5)) }
            let closed = Mutex(false)
            DispatchQueue.global().async {
                pool.close()
                closed.withLock { $0 = true }
            }
            while !pool.isClosed { try await Task.sleep(for: .milliseconds(5)) }
            // The only reader is still busy: close() is waiting for it.
            try await Task.sleep(for: .milliseconds(100))
            #expect(!closed.withLock { $0 })
            await #expect(throws: SQLiteError.self) { try await waiting.value }
            finish.signal()
            #expect(try await running.value == 42, "the read under way finishes")
            while !closed.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        }
    }

    @Test func migrationsRunOnceInOrderAndAFailingOneLeavesNoTrace() async throws {
        try await withTemporaryDirectory { directory in
            try SQLiteFile.open(directory + "/t.sqlite") { db in
                try db.execute(sql: "PRAGMA foreign_keys = ON")
                let runs = Mutex<[String]>([])
                var migrator = SQLiteMigrator()
                migrator.registerMigration("v1-a") { db in
                    runs.withLock { $0.append("v1") }
                    try db.execute(sql: "CREATE TABLE a (id INTEGER PRIMARY KEY)")
                }
                try migrator.migrate(db)
                migrator.registerMigration("v2-b") { db in
                    runs.withLock { $0.append("v2") }
                    try db.execute(sql: "CREATE TABLE b (a_id INTEGER REFERENCES a(id)); INSERT INTO b VALUES (7)")
                }
                let broken = try #require(throws: SQLiteError.self) { try migrator.migrate(db) }
                #expect(broken.code == .constraint && broken.message.contains("v2-b"), "\(broken)")
                #expect(try String.fetchOne(db, sql: "SELECT name FROM sqlite_master WHERE name = 'b'") == nil)
                #expect(try migrator.appliedIdentifiers(db) == ["v1-a"])
                #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true, "foreign keys are back on")
                #expect(runs.withLock { $0 } == ["v1", "v2"])
                #expect(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") == ["v1-a"])
            }
        }
    }
}
