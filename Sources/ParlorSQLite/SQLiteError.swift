import CSQLite

/// What SQLite reported: its extended result code, its message, and the statement it was running.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The extended result code (`SQLITE_IOERR_FSYNC`, `SQLITE_CORRUPT_INDEX`, …).
    public let extendedCode: Int32
    /// `sqlite3_errmsg` at the time, or our own sentence for a misuse SQLite never saw.
    public let message: String
    /// The statement that failed, when one did.
    public let sql: String?

    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// The primary result code (`SQLITE_IOERR` for `SQLITE_IOERR_FSYNC`), which says what kind of trouble.
    public var code: ResultCode { ResultCode(rawValue: extendedCode & 0xFF) }

    public var description: String {
        "SQLite error \(extendedCode): \(message)" + (sql.map { " (while running `\($0)`)" } ?? "")
    }

    /// The primary result codes a caller tells apart (https://www.sqlite.org/rescode.html).
    public struct ResultCode: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let error = ResultCode(rawValue: SQLITE_ERROR)
        public static let permission = ResultCode(rawValue: SQLITE_PERM)
        public static let busy = ResultCode(rawValue: SQLITE_BUSY)
        public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
        public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
        public static let interrupted = ResultCode(rawValue: SQLITE_INTERRUPT)
        public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
        public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
        public static let full = ResultCode(rawValue: SQLITE_FULL)
        public static let cantOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
        public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
        public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
        public static let auth = ResultCode(rawValue: SQLITE_AUTH)
        public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
    }

    /// A call on a connection that was closed: SQLite must never see its handle again.
    static func closed(_ sql: String? = nil) -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_MISUSE, message: "the database connection is closed", sql: sql)
    }
}

/// A column whose value is not of the type asked for (a NULL where a value must be, text where a
/// number must be): the file holds something this build did not write.
public struct SQLiteDecodingError: Error, CustomStringConvertible, Sendable {
    public let column: String
    public let expected: String
    public let found: SQLiteValue

    public var description: String {
        "column \(column) holds \(found.kindName), not \(expected)"
    }
}
