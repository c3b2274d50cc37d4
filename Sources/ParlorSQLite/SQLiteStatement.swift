import CSQLite

/// One compiled statement of a connection (`sqlite3_stmt`). Used on its connection's thread only;
/// finalized with it.
public final class SQLiteStatement {
    let handle: OpaquePointer
    /// The connection's handle, for its error messages; the connection outlives its statements.
    private let database: OpaquePointer
    public let sql: String
    private lazy var columnNames: [String] = (0..<sqlite3_column_count(handle)).map {
        sqlite3_column_name(handle, $0).map { String(cString: $0) } ?? ""
    }

    init(handle: OpaquePointer, database: OpaquePointer, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    func finalize() {
        sqlite3_finalize(handle)
    }

    /// Runs the statement to its end with these arguments, ignoring any rows.
    public func execute(arguments: StatementArguments = []) throws(SQLiteError) {
        try bind(arguments)
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Binds every placeholder: `?` ones to the positional arguments in order, `:name` ones (also
    /// `@name`, `$name`) to the named argument. Every placeholder needs an argument and every
    /// positional argument a placeholder.
    /// The statement must be at its start: fresh, or reset (as `execute` leaves it).
    func bind(_ arguments: StatementArguments) throws(SQLiteError) {
        let count = sqlite3_bind_parameter_count(handle)
        var positional = arguments.values.makeIterator()
        var used = 0
        for index in stride(from: Int32(1), through: count, by: 1) {
            let value: SQLiteValue?
            if let name = Self.parameterName(handle, index) {
                value = arguments.named[name]
                guard value != nil else {
                    throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "no argument is named \(name)", sql: sql)
                }
            } else {
                value = positional.next()
                used += 1
                guard value != nil else {
                    throw SQLiteError(
                        extendedCode: SQLITE_MISUSE,
                        message: "the statement has more placeholders than the \(arguments.values.count) arguments given", sql: sql)
                }
            }
            try bind(value ?? .null, at: index)
        }
        guard used == arguments.values.count else {
            throw SQLiteError(
                extendedCode: SQLITE_MISUSE,
                message: "the statement has \(used) placeholders but \(arguments.values.count) arguments were given", sql: sql)
        }
    }

    /// The placeholders `?` takes from the positional arguments (`?NNN` is not used here).
    var positionalParameterCount: Int {
        stride(from: Int32(1), through: sqlite3_bind_parameter_count(handle), by: 1)
            .filter { Self.parameterName(handle, $0) == nil }.count
    }

    /// "user" for `:user`, `@user` or `$user`; nil for `?`.
    private static func parameterName(_ handle: OpaquePointer, _ index: Int32) -> String? {
        guard let name = sqlite3_bind_parameter_name(handle, index) else { return nil }
        let text = String(cString: name)
        guard let first = text.first, first != "?" else { return nil }
        return String(text.dropFirst())
    }

    private func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, index)
        case .integer(let integer): code = sqlite3_bind_int64(handle, index, integer)
        case .real(let real): code = sqlite3_bind_double(handle, index, real)
        case .text(let text):
            var text = text
            code = text.withUTF8 { bytes in
                parlor_sqlite_bind_text(
                    handle, index, UnsafeRawPointer(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                        .assumingMemoryBound(to: CChar.self), Int32(bytes.count))
            }
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { raw in
                // A zero-length blob, not NULL: SQLite binds NULL for a nil pointer.
                parlor_sqlite_bind_blob(handle, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, Int32(raw.count))
            }
        }
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// True when a row is ready to read, false when the statement is done.
    func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw error(code)
        }
    }

    func value(at column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let text = sqlite3_column_text(handle, column) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        default:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let bytes = sqlite3_column_blob(handle, column), count > 0 else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        }
    }

    func decodeColumn<T: SQLiteValueConvertible>(_ column: Int32, as type: T.Type) throws -> T {
        let value = value(at: column)
        guard let decoded = T.decode(value) else {
            let name = Int(column) < columnNames.count ? columnNames[Int(column)] : "\(column)"
            throw SQLiteDecodingError(column: name, expected: "\(T.self)", found: value)
        }
        return decoded
    }

    func row() -> SQLiteRow {
        SQLiteRow(columnNames: columnNames, values: (0..<Int32(columnNames.count)).map(value(at:)))
    }

    private func error(_ code: Int32) -> SQLiteError {
        // The connection's message belongs to the last failed call, which was ours. With extended
        // result codes on, `code` is the extended one.
        SQLiteError(extendedCode: code, message: String(cString: sqlite3_errmsg(database)), sql: sql)
    }
}
