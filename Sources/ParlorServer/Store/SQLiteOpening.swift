import ParlorSQLite

/// Opening the database file: connection settings and the start-up health check.
extension SQLiteStore {
    /// A WAL-mode pool: one writer connection (driven only by `SQLiteWriter`'s batches and the rare
    /// direct write) and `readerCount` read connections that never wait for it.
    static func openPool(file: String, configuration: SQLiteStoreConfiguration) throws(StoreError) -> SQLitePool {
        var settings = SQLitePoolConfiguration()
        settings.label = "parlor.store"
        settings.busyTimeout = configuration.busyTimeout
        settings.readerCount = configuration.effectiveReaderCount
        do {
            let pool = try SQLitePool(path: file, configuration: settings)
            // Only the writer's `synchronous` matters: it alone commits and checkpoints.
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
    static func checkIntegrity(_ pool: SQLitePool, file: String) throws(StoreError) {
        let problems: [String]
        do {
            // On the writer, which sees what is committed as a reader would: nothing else runs yet.
            problems = try pool.writeWithoutTransaction { db in
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
