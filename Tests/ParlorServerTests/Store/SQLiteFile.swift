import ParlorSQLite

/// A store's SQLite file opened beside the store, as an operator's `sqlite3` shell would: one
/// connection for `body`, closed after it.
enum SQLiteFile {
    /// `body` in a read transaction.
    static func read<T>(_ path: String, _ body: (SQLiteConnection) throws -> T) throws -> T {
        try open(path) { db in try db.inTransaction(.deferred) { try body(db) } }
    }

    /// `body` in a write transaction, committed when it returns.
    static func write<T>(_ path: String, _ body: (SQLiteConnection) throws -> T) throws -> T {
        try open(path) { db in try db.inTransaction(.immediate) { try body(db) } }
    }

    /// `body` outside any transaction.
    static func open<T>(_ path: String, readOnly: Bool = false, _ body: (SQLiteConnection) throws -> T) throws -> T {
        let db = try SQLiteConnection(path: path, readOnly: readOnly, busyTimeout: .seconds(5))
        defer { db.close() }
        return try body(db)
    }
}
