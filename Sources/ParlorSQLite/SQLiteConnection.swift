import CSQLite

/// One connection to a SQLite database file (`sqlite3 *`), over SQLite's C API.
///
/// A connection is used by one thread at a time (it is opened without SQLite's own mutex); whoever
/// owns it says which (`SQLitePool` keeps each on a serial queue of its own). Only `interrupter` may be
/// used from another thread. Statements compiled with `cachedStatement(sql:)` live as long as the
/// connection; everything else is compiled, run and finalized in one call.
public final class SQLiteConnection {
    private var handle: OpaquePointer?
    public let path: String
    private var cache: [String: SQLiteStatement] = [:]
    private var hooks: Hooks?

    /// Opens (for writing: creating when missing) the database at `path`. `busyTimeout` is how long a
    /// statement waits for a lock another connection holds before failing with `SQLITE_BUSY`.
    public init(path: String, readOnly: Bool = false, busyTimeout: Duration? = nil) throws(SQLiteError) {
        self.path = path
        var handle: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw SQLiteError(extendedCode: code, message: message)
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        if let busyTimeout {
            let (seconds, attoseconds) = busyTimeout.components
            let milliseconds = max(0, min(Int64(Int32.max), seconds * 1000 + attoseconds / 1_000_000_000_000_000))
            sqlite3_busy_timeout(handle, Int32(milliseconds))
        }
    }

    deinit { close() }

    /// Finalizes every statement and closes the file. Calls after this fail with `SQLITE_MISUSE`.
    public func close() {
        guard let handle else { return }
        for statement in cache.values { statement.finalize() }
        cache = [:]
        if hooks != nil {
            sqlite3_commit_hook(handle, nil, nil)
            sqlite3_update_hook(handle, nil, nil)
            hooks = nil
        }
        // `_v2`: should a statement still be open, SQLite closes once it is finalized instead of failing.
        sqlite3_close_v2(handle)
        self.handle = nil
    }

    public var isClosed: Bool { handle == nil }

    private func open(_ sql: String? = nil) throws(SQLiteError) -> OpaquePointer {
        guard let handle else { throw SQLiteError.closed(sql) }
        return handle
    }

    private func error(_ code: Int32, _ handle: OpaquePointer, sql: String?) -> SQLiteError {
        SQLiteError(extendedCode: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    // MARK: Statements

    /// Runs every statement in `sql` (several may be separated by semicolons), its rows ignored. The
    /// arguments fill the placeholders in order, across statements.
    public func execute(sql: String, arguments: StatementArguments = []) throws {
        let handle = try open(sql)
        var remaining = arguments.values[...]
        var source = sql  // withUTF8 may make it contiguous
        try source.withUTF8 { (buffer: UnsafeBufferPointer<UInt8>) throws in
            guard let base = buffer.baseAddress else { return }
            let start = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
            let end = start + buffer.count
            var cursor = start
            while cursor < end {
                var statementHandle: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(handle, cursor, Int32(end - cursor), &statementHandle, &tail)
                guard code == SQLITE_OK else { throw error(code, handle, sql: String(cString: cursor)) }
                guard let statementHandle else { break }  // only whitespace or comments were left
                let text = String(decoding: UnsafeRawBufferPointer(start: cursor, count: (tail ?? end) - cursor), as: UTF8.self)
                let statement = SQLiteStatement(handle: statementHandle, database: handle, sql: text)
                defer { statement.finalize() }
                let count = statement.positionalParameterCount
                let next = tail ?? end
                // The last statement takes every argument left: a count that does not match fails
                // before it runs (earlier statements have run by then, as they would in the shell).
                let isLast = try Self.holdsNoStatement(handle, from: next, to: end)
                guard isLast ? count == remaining.count : count <= remaining.count else {
                    throw SQLiteError(
                        extendedCode: SQLITE_MISUSE,
                        message: "the SQL has \(count > remaining.count ? "more" : "fewer") placeholders than the \(arguments.values.count) arguments given",
                        sql: sql)
                }
                try statement.execute(arguments: StatementArguments(values: Array(remaining.prefix(count)), named: arguments.named))
                remaining = remaining.dropFirst(count)
                if isLast { break }
                cursor = next
            }
        }
        guard remaining.isEmpty else {
            throw SQLiteError(
                extendedCode: SQLITE_MISUSE,
                message: "\(remaining.count) of the \(arguments.values.count) arguments given have no placeholder", sql: sql)
        }
    }

    /// Whether the text holds only whitespace and comments. A statement that cannot be compiled yet
    /// (it names a table an earlier statement creates) is still a statement.
    private static func holdsNoStatement(
        _ handle: OpaquePointer, from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>
    ) throws(SQLiteError) -> Bool {
        guard start < end else { return true }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, start, Int32(end - start), &statement, nil)
        defer { sqlite3_finalize(statement) }
        return code == SQLITE_OK && statement == nil
    }

    /// The statement compiled once for this connection, kept until it closes: for what runs often.
    public func cachedStatement(sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = cache[sql] { return statement }
        let statement = try prepare(sql, persistent: true)
        cache[sql] = statement
        return statement
    }

    private func prepare(_ sql: String, persistent: Bool) throws(SQLiteError) -> SQLiteStatement {
        let handle = try open(sql)
        var statementHandle: OpaquePointer?
        let code = sqlite3_prepare_v3(
            handle, sql, -1, persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0, &statementHandle, nil)
        guard code == SQLITE_OK else { throw error(code, handle, sql: sql) }
        guard let statementHandle else {
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "the SQL holds no statement", sql: sql)
        }
        return SQLiteStatement(handle: statementHandle, database: handle, sql: sql)
    }

    /// Runs the one statement in `sql` and calls `body` on each row (at most `limit`), while the
    /// statement is positioned on it.
    func forEachRow(
        sql: String, arguments: StatementArguments, limit: Int = .max, _ body: (SQLiteStatement) throws -> Void
    ) throws {
        let statement = try prepare(sql, persistent: false)
        defer { statement.finalize() }
        try statement.bind(arguments)
        var count = 0
        while count < limit, try statement.step() {
            try body(statement)
            count += 1
        }
    }

    // MARK: State

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changesCount: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

    /// The rowid of the last row inserted.
    public var lastInsertedRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

    /// Whether a transaction is open (SQLite is out of autocommit mode).
    public var isInsideTransaction: Bool { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false }

    // MARK: Transactions

    public enum TransactionKind: String, Sendable {
        /// Takes the write lock at once: for a connection that writes.
        case immediate = "IMMEDIATE"
        /// Takes a lock at the first read: for reads that must see one snapshot.
        case deferred = "DEFERRED"
    }

    /// Runs `body` in a transaction, committed when it returns and rolled back when it throws. BEGIN and
    /// COMMIT are cached statements: compiling them afresh for every batch was a fifth of the store's
    /// writer time at a few writes per batch.
    public func inTransaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        try cachedStatement(sql: "BEGIN \(kind.rawValue) TRANSACTION").execute()
        do {
            let result = try body()
            try cachedStatement(sql: "COMMIT TRANSACTION").execute()
            return result
        } catch {
            // A failed COMMIT can leave the transaction open (SQLITE_BUSY, SQLITE_FULL); the caller
            // hears the first error, not the rollback's.
            if isInsideTransaction { try? rollback() }
            throw error
        }
    }

    public func rollback() throws(SQLiteError) {
        try cachedStatement(sql: "ROLLBACK TRANSACTION").execute()
    }

    // MARK: Other threads

    /// Makes the statement this connection is running fail at once with `SQLITE_INTERRUPT`, from any
    /// thread, for as long as the connection is open: its owner must not close it meanwhile.
    public var interrupter: SQLiteInterrupter { SQLiteInterrupter(handle: handle) }

    // MARK: Hooks

    /// Calls `didChange` with the table's name for every row an INSERT, UPDATE or DELETE changes, and
    /// `willCommit` as each transaction commits (on this connection's thread, before the commit is
    /// durable; it cannot stop it). For tests that must see or hold the writer inside a commit.
    public func observe(didChange: @escaping (String) -> Void, willCommit: @escaping () -> Void) throws(SQLiteError) {
        let handle = try open()
        let hooks = Hooks(didChange: didChange, willCommit: willCommit)
        self.hooks = hooks
        let context = Unmanaged.passUnretained(hooks).toOpaque()
        sqlite3_update_hook(handle, { context, _, _, table, _ in
            guard let context, let table else { return }
            Unmanaged<Hooks>.fromOpaque(context).takeUnretainedValue().didChange(String(cString: table))
        }, context)
        sqlite3_commit_hook(handle, { context in
            guard let context else { return 0 }
            Unmanaged<Hooks>.fromOpaque(context).takeUnretainedValue().willCommit()
            return 0
        }, context)
    }

    private final class Hooks {
        let didChange: (String) -> Void
        let willCommit: () -> Void
        init(didChange: @escaping (String) -> Void, willCommit: @escaping () -> Void) {
            self.didChange = didChange
            self.willCommit = willCommit
        }
    }
}

/// Interrupts what a connection is running, from another thread (`sqlite3_interrupt`).
public struct SQLiteInterrupter: @unchecked Sendable {
    // SQLite allows `sqlite3_interrupt` from any thread while the connection is open.
    fileprivate let handle: OpaquePointer?

    public func interrupt() {
        if let handle { sqlite3_interrupt(handle) }
    }
}
