/// Numbered schema migrations, each run once, in order, in a transaction of its own.
///
/// Which ran is recorded in the table `grdb_migrations` (one row per migration's identifier): the
/// name and layout GRDB's migrator used, which wrote every Parlor database before this one, so an
/// existing data directory carries on where it stopped.
public struct SQLiteMigrator: Sendable {
    public static let tableName = "grdb_migrations"

    private var migrations: [(identifier: String, migrate: @Sendable (SQLiteConnection) throws -> Void)] = []

    public init() {}

    /// The identifiers registered, in order.
    public var identifiers: [String] { migrations.map(\.identifier) }

    /// Adds a migration after the others.
    public mutating func registerMigration(
        _ identifier: String, migrate: @escaping @Sendable (SQLiteConnection) throws -> Void
    ) {
        precondition(!identifiers.contains(identifier), "migration \(identifier) is registered twice")
        migrations.append((identifier, migrate))
    }

    /// Every identifier the database records as run, including ones this build does not know.
    public func appliedIdentifiers(_ db: SQLiteConnection) throws -> Set<String> {
        let exists = try Bool.fetchOne(
            db, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [Self.tableName])
        guard exists == true else { return [] }
        return Set(try String.fetchAll(db, sql: "SELECT identifier FROM \(Self.tableName.quotedDatabaseIdentifier)"))
    }

    /// Runs each migration not yet recorded. Foreign keys are off while one runs (a migration may move
    /// rows between tables in any order) and checked before it commits (`PRAGMA foreign_key_check`),
    /// as SQLite's guide to schema changes says (https://www.sqlite.org/lang_altertable.html#otheralter).
    public func migrate(_ db: SQLiteConnection) throws {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(Self.tableName.quotedDatabaseIdentifier) (identifier TEXT NOT NULL PRIMARY KEY)")
        let applied = try appliedIdentifiers(db)
        for migration in migrations where !applied.contains(migration.identifier) {
            let enforced = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false
            if enforced { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
            defer { if enforced { try? db.execute(sql: "PRAGMA foreign_keys = ON") } }
            try db.inTransaction(.immediate) {
                try migration.migrate(db)
                try db.execute(
                    sql: "INSERT INTO \(Self.tableName.quotedDatabaseIdentifier) (identifier) VALUES (?)",
                    arguments: [migration.identifier])
                if enforced, let violation = try SQLiteRow.fetchOne(db, sql: "PRAGMA foreign_key_check") {
                    throw SQLiteError(
                        extendedCode: SQLiteError.ResultCode.constraint.rawValue,
                        message: "migration \(migration.identifier) leaves a row of \((try? violation.decode(String.self, forColumn: "table")) ?? "a table") naming a missing row of \((try? violation.decode(String.self, forColumn: "parent")) ?? "another")")
                }
            }
        }
    }
}
