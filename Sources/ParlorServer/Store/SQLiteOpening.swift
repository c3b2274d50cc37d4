import GRDB

/// Opening the database file: connection settings and the start-up health check.
extension SQLiteStore {
    /// A WAL-mode pool: one writer connection (driven only by `SQLiteWriter`'s batches and the rare
    /// direct write) and `readerCount` read connections that never wait for it.
    static func openPool(file: String, configuration: SQLiteStoreConfiguration) throws(StoreError) -> DatabasePool {
        var grdb = Configuration()
        grdb.label = "parlor.store"
        grdb.journalMode = .wal
        grdb.foreignKeysEnabled = true
        grdb.busyMode = .timeout(configuration.busyTimeoutSeconds)
        grdb.maximumReaderCount = configuration.effectiveReaderCount
        // GRDB stops the process when a database access ends inside a transaction. Our writer rolls
        // back after every failure, but should SQLite ever refuse that rollback, the next batch
        // reports the error; a store must fail its callers, never crash the server.
        grdb.allowsUnsafeTransactions = true
        do {
            let pool = try DatabasePool(path: file, configuration: grdb)
            // After opening, because GRDB sets `synchronous = NORMAL` when it enables WAL mode. Only the
            // writer's setting matters: it alone commits and checkpoints.
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = \(configuration.synchronous.rawValue)")
                try db.execute(sql: "PRAGMA journal_size_limit = \(max(0, configuration.walSizeLimitBytes))")
                try configuration.prepareWriter?(db)
            }
            return pool
        } catch {
            throw SQLiteErrorMapping.storeError(error, doing: "Opening the database", file: file)
        }
    }

    /// `PRAGMA quick_check`: page structure and record formats, without the index cross-check of a
    /// full `integrity_check`, which costs much more on a large history.
    static func checkIntegrity(_ pool: DatabasePool, file: String) throws(StoreError) {
        let problems: [String]
        do {
            problems = try pool.read { db in
                try String.fetchAll(db, sql: "PRAGMA quick_check(5)")
            }
        } catch {
            throw SQLiteErrorMapping.storeError(error, doing: "Checking the database", file: file)
        }
        guard problems == ["ok"] else {
            throw SQLiteErrorMapping.corrupt(
                file: file,
                detail: "quick_check: " + problems.joined(separator: "; ").split(whereSeparator: \.isNewline).joined(separator: " "))
        }
    }
}
