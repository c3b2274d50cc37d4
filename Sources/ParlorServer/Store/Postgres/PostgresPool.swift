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
        // A backstop: whatever leaves one of this node's transactions open (a task that stopped
        // half-way), PostgreSQL ends it after this long instead of letting it hold its rows — and
        // every other node's save of those games — for good. Parlor's transactions take milliseconds.
        configuration.options.additionalStartupParameters = [("idle_in_transaction_session_timeout", "30000")]
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
                        // A connection that comes after the caller gave up — and was told that nothing
                        // was done — must not do it: a batch's commit run later, in a cancelled task,
                        // could stop half-way and leave its transaction open, holding its games' rows.
                        guard leased.claim() else { throw CancellationError() }
                        return try await body(connection)
                    })
                }
                group.addTask { [leaseTimeout] in
                    try await Task.sleep(for: leaseTimeout)
                    return leased.abandon() ? .timedOut : .leasedInTime
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

    /// Whether the connection came in time, decided once: by the lease (`claim`) or by the timeout
    /// (`abandon`), whichever is first.
    private final class Leased: Sendable {
        /// 0: waiting, 1: leased, 2: abandoned.
        private let state = Atomic<Int>(0)

        /// True when the lease came first: the work may run.
        func claim() -> Bool { state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged }

        /// True when the timeout came first: the caller gives up, and a later lease does nothing.
        func abandon() -> Bool { state.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged }
    }
}
