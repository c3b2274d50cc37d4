import Foundation

/// One value of a column or a statement's argument, in SQLite's five storage classes.
public enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// "NULL", "an integer", … for error messages.
    var kindName: String {
        switch self {
        case .null: "NULL"
        case .integer: "an integer"
        case .real: "a real"
        case .text: "text"
        case .blob: "a blob"
        }
    }
}

/// A Swift type stored in one column: how it binds as an argument, and how it reads back.
public protocol SQLiteValueConvertible {
    var sqliteValue: SQLiteValue { get }
    /// Nil when `value` cannot be read as this type (a NULL for a non-optional, text for a number).
    static func decode(_ value: SQLiteValue) -> Self?
}

extension String: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .text(self) }
    public static func decode(_ value: SQLiteValue) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }
}

extension Int64: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(self) }
    public static func decode(_ value: SQLiteValue) -> Int64? {
        switch value {
        case .integer(let integer): integer
        case .real(let real): Int64(exactly: real)
        default: nil
        }
    }
}

extension Int: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
    public static func decode(_ value: SQLiteValue) -> Int? { Int64.decode(value).flatMap { Int(exactly: $0) } }
}

extension Double: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .real(self) }
    public static func decode(_ value: SQLiteValue) -> Double? {
        switch value {
        case .integer(let integer): Double(integer)
        case .real(let real): real
        default: nil
        }
    }
}

extension Bool: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
    public static func decode(_ value: SQLiteValue) -> Bool? { Int64.decode(value).map { $0 != 0 } }
}

extension Data: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .blob([UInt8](self)) }
    public static func decode(_ value: SQLiteValue) -> Data? {
        switch value {
        case .blob(let bytes): Data(bytes)
        case .text(let text): Data(text.utf8)
        default: nil
        }
    }
}

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
    /// NULL reads as `.some(nil)`; any other value must read as `Wrapped`.
    public static func decode(_ value: SQLiteValue) -> Wrapped?? {
        if case .null = value { return .some(nil) }
        return Wrapped.decode(value).map { .some($0) }
    }
}

/// A statement's arguments: in order for its `?` placeholders (`[kind, id, nil]`), or by name for its
/// `:name` placeholders (`["user": id]`).
public struct StatementArguments: ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, Sendable {
    public var values: [SQLiteValue]
    public var named: [String: SQLiteValue] = [:]

    public init(arrayLiteral elements: (any SQLiteValueConvertible)?...) {
        values = elements.map { $0?.sqliteValue ?? .null }
    }

    public init(dictionaryLiteral elements: (String, (any SQLiteValueConvertible)?)...) {
        values = []
        for (name, value) in elements { named[name] = value?.sqliteValue ?? .null }
    }

    public init(_ elements: [(any SQLiteValueConvertible)?]) {
        values = elements.map { $0?.sqliteValue ?? .null }
    }

    public init<S: Sequence>(_ elements: S) where S.Element: SQLiteValueConvertible {
        values = elements.map(\.sqliteValue)
    }

    public init(values: [SQLiteValue], named: [String: SQLiteValue] = [:]) {
        self.values = values
        self.named = named
    }
}

extension SQLiteValueConvertible {
    /// The first column of every row.
    public static func fetchAll(
        _ db: SQLiteConnection, sql: String, arguments: StatementArguments = []
    ) throws -> [Self] {
        var result: [Self] = []
        try db.forEachRow(sql: sql, arguments: arguments) { statement in
            result.append(try statement.decodeColumn(0, as: Self.self))
        }
        return result
    }

    /// The first column of the first row; nil when there is no row or its value is NULL.
    public static func fetchOne(
        _ db: SQLiteConnection, sql: String, arguments: StatementArguments = []
    ) throws -> Self? {
        var result: Self?
        try db.forEachRow(sql: sql, arguments: arguments, limit: 1) { statement in
            result = try statement.decodeColumn(0, as: Self?.self)
        }
        return result
    }
}

/// One row of a query's result, its columns by name.
public struct SQLiteRow: Sendable {
    /// The result's column names, shared by every row of one query.
    public let columnNames: [String]
    public let values: [SQLiteValue]

    /// The value of `column` (matched as SQLite matches names: ASCII case aside); NULL when there is no such column.
    public subscript(_ column: String) -> SQLiteValue {
        index(of: column).map { values[$0] } ?? .null
    }

    /// The value of `column` as `T`; throws when the row has no such column or its value is not a `T`.
    public func decode<T: SQLiteValueConvertible>(_ type: T.Type = T.self, forColumn column: String) throws -> T {
        guard let index = index(of: column) else {
            throw SQLiteDecodingError(column: column, expected: "\(T.self) (the row has no such column)", found: .null)
        }
        guard let value = T.decode(values[index]) else {
            throw SQLiteDecodingError(column: column, expected: "\(T.self)", found: values[index])
        }
        return value
    }

    private func index(of column: String) -> Int? {
        columnNames.firstIndex(of: column)
            ?? columnNames.firstIndex { $0.caseInsensitiveCompare(column) == .orderedSame }
    }

    public static func fetchAll(
        _ db: SQLiteConnection, sql: String, arguments: StatementArguments = []
    ) throws -> [SQLiteRow] {
        var rows: [SQLiteRow] = []
        try db.forEachRow(sql: sql, arguments: arguments) { statement in rows.append(statement.row()) }
        return rows
    }

    public static func fetchOne(
        _ db: SQLiteConnection, sql: String, arguments: StatementArguments = []
    ) throws -> SQLiteRow? {
        var row: SQLiteRow?
        try db.forEachRow(sql: sql, arguments: arguments, limit: 1) { statement in row = statement.row() }
        return row
    }
}

extension String {
    /// The name quoted as an SQL identifier: `"games"`, inner quotes doubled.
    public var quotedDatabaseIdentifier: String {
        "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
