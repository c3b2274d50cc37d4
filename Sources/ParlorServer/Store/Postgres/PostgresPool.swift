import Logging
import PostgresNIO
import Synchronization

/// The connections to one PostgreSQL database: postgres-nio's client, which pools them and reconnects
/// with backoff when the database goes away, run for as long as the store is open.
///
/// A call waits at most `leaseTimeout` for a connection: while the database is down the client keeps
/// trying to connect in the background, and a request fails at once with `.unreachable` rather than
/// hanging until the database is back. Nothing has been sent by then, so nothing was changed.
final class PostgresPool: Sendable {
    let location: PostgresLocation
    let logger: Logger
    private let client: PostgresClient
    private let runner: Task<Void, Never>
    private let leaseTimeout: Duration

    init(location: PostgresLocation, logger: Logger, maximumConnections: Int = 8, leaseTimeout: Duration = .seconds(5)) {
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.username, password: location.password,
            database: location.database, tls: .disable)
        configuration.options.connectTimeout = leaseTimeout
        configuration.options.maximumConnections = maximumConnections
        configuration.options.minimumConnections = 1
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.location = location
        self.logger = logger
        self.leaseTimeout = leaseTimeout
        runner = Task { await client.run() }
    }

    /// Lets running calls finish, then closes every connection.
    func close() async {
        runner.cancel()
        await runner.value
    }

    /// Runs `body` on a connection of its own; `doing` names the work in an error's reason.
    func withConnection<T: Sendable>(
        _ doing: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(StoreError) -> T {
        let leased = Leased()
        do {
            return try await withThrowingTaskGroup(of: Outcome<T>.self) { group in
                group.addTask { [client] in
                    .value(try await client.withConnection { connection in
                        leased.flag.store(true, ordering: .releasing)
                        return try await body(connection)
                    })
                }
                group.addTask { [leaseTimeout] in
                    try await Task.sleep(for: leaseTimeout)
                    return leased.flag.load(ordering: .acquiring) ? .leasedInTime : .timedOut
                }
                while let outcome = try await group.next() {
                    switch outcome {
                    case .value(let value):
                        group.cancelAll()
                        return value
                    case .leasedInTime:
                        continue
                    case .timedOut:
                        group.cancelAll()
                        throw PostgresErrorMapping.unreachable(
                            doing: doing, location: location, detail: "no connection within \(leaseTimeout)")
                    }
                }
                throw StoreError(.failed, "\(doing) on \(location) ended without an outcome.")
            }
        } catch {
            throw PostgresErrorMapping.storeError(error, doing: doing, location: location)
        }
    }

    /// Runs `body` in a transaction of its own, committed before this returns.
    func transaction<T: Sendable>(
        _ doing: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(StoreError) -> T {
        let logger = logger
        return try await withConnection(doing) { connection in
            try await connection.withTransaction(logger: logger) { connection in try await body(connection) }
        }
    }

    /// The rows of one query, all read.
    func rows(_ doing: String, _ query: PostgresQuery) async throws(StoreError) -> [PostgresRow] {
        let logger = logger
        return try await withConnection(doing) { connection in
            try await connection.query(query, logger: logger).collect()
        }
    }

    private enum Outcome<T: Sendable>: Sendable {
        case value(T)
        case leasedInTime
        case timedOut
    }

    private final class Leased: Sendable {
        let flag = Atomic<Bool>(false)
    }
}
