import Foundation
import ParlorSQLite
import Logging
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// The durable stores every store behaviour test runs against: SQLite always, PostgreSQL in a build with
/// the PostgreSQL trait wherever its binaries are installed (CI installs them and builds the tests with
/// the trait; elsewhere `PostgresStoreTests` says why it skipped).
enum DurableStore: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    var testDescription: String { rawValue }

    static var available: [DurableStore] { PostgresSupport.isBuilt && TestPostgres.unavailableReason == nil ? allCases : [.sqlite] }

    /// Runs `body` with a fresh place for this kind of store (a temporary directory, a new database)
    /// that it can open stores on, again and again, each seeing what the last one committed.
    func withPlace(_ body: (StorePlace) async throws -> Void) async throws {
        switch self {
        case .sqlite:
            try await withTemporaryDirectory { directory in try await body(.sqlite(directory)) }
        case .postgres:
            #if PostgreSQL
            let server = try #require(try await TestPostgres.shared(), "PostgreSQL is not installed")
            let database = try await server.makeDatabase()
            try await body(.postgres(server, database))
            #else
            throw PostgresSupport.NotBuiltError()
            #endif
        }
    }
}

/// Where a test's stores live.
enum StorePlace: Sendable {
    case sqlite(String)
    #if PostgreSQL
    case postgres(TestPostgres, String)
    #endif

    /// Opens a store here; the caller closes it.
    func open(_ configuration: SQLiteStoreConfiguration = StoreFixtures.configuration) async throws -> any ParlorStore {
        switch self {
        case .sqlite(let directory):
            return try SQLiteStore(directory: directory, configuration: configuration)
        #if PostgreSQL
        case .postgres(let server, let database):
            return try await PostgresStore(
                location: try PostgresLocation(parsing: server.address(database)), logger: .quiet, configuration: configuration)
        #endif
        }
    }

    /// The number of rows in `table`, read beside the store.
    func count(_ table: String) async throws -> Int {
        switch self {
        case .sqlite(let directory):
            return try SQLiteFile.read(directory + "/parlor.sqlite") { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? -1 }
        #if PostgreSQL
        case .postgres(let server, let database):
            return Int(try await server.psql("SELECT count(*) FROM \(table)", database: database)) ?? -1
        #endif
        }
    }

    /// Runs `sql` beside the store (to damage rows, as an operator or a bug might).
    func execute(_ sql: String) async throws {
        switch self {
        case .sqlite(let directory):
            try SQLiteFile.write(directory + "/parlor.sqlite") { db in try db.execute(sql: sql) }
        #if PostgreSQL
        case .postgres(let server, let database):
            try await server.psql(sql, database: database)
        #endif
        }
    }
}

extension Logger {
    /// Warnings and worse: postgres-nio's connection chatter stays out of test output.
    static var quiet: Logger {
        var logger = Logger(label: "parlor.test.store")
        logger.logLevel = .warning
        return logger
    }
}
