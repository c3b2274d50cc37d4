// Built only with the PostgreSQL trait (`swift build --traits PostgreSQL`): see Package.swift.
#if PostgreSQL
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ParlorRules
import PostgresNIO
import Synchronization
import SystemTLS

/// The clustered store: every game, the token secret, history, accounts, users' settings, games' own
/// records and uploaded files in one PostgreSQL database that several parlor-server nodes share
/// (`--postgres postgres://user@host:port/db`).
///
/// The contract is SQLite's: a write returns once committed, and the games' saves are group-committed
/// (`PostgresWriter`). Opening migrates the schema under an advisory lock, so nodes may start together.
/// While the database cannot be reached, calls fail at once with `.unreachable` (clients get
/// `UNAVAILABLE`) and the connection pool reconnects with backoff in the background.
public final class PostgresStore: ParlorStore {
    public let location: PostgresLocation
    let pool: PostgresPool
    private let writer: PostgresWriter
    private let maxHistoryPageSize: Int
    private let isClosed = Atomic<Bool>(false)
    /// The time a write outside the group commit is stamped with, as the writer stamps its batches.
    let now: @Sendable () -> Instant
    /// This node among those sharing the database: in its announcements of committed game versions, as
    /// the node that serves the games it creates, in `nodes`. A cluster's front routes by it
    /// (`--node-name`); a store opened without one (tools, tests) is a node of a random name.
    let node: String
    /// The watch buckets the other nodes listen to, as this node's last beat read them: a committed
    /// version is announced on its bucket only when one of them does. Nil (a store no cluster node
    /// drives: tools, tests): announced on every bucket.
    let watchedElsewhere = NIOLockedValueBox<Set<Int>?>(nil)
    /// The server's cluster figures, once attached (`attach(_:)`).
    private let metrics = NIOLockedValueBox<ClusterMetrics?>(nil)

    /// Connects, checks and migrates the schema. Fails when the database cannot be reached (start-up
    /// does not wait for it), was written by a newer Parlor, or refuses Parlor's user.
    public init(
        location: PostgresLocation, logger: Logger, configuration: SQLiteStoreConfiguration = .init(),
        leaseTimeout: Duration = .seconds(5), node: String? = nil
    ) async throws(StoreError) {
        self.location = location
        let pool = PostgresPool(location: location, logger: logger, leaseTimeout: leaseTimeout)
        self.pool = pool
        maxHistoryPageSize = configuration.effectiveMaxHistoryPageSize
        now = configuration.now
        self.node = node ?? UUID().uuidString
        writer = PostgresWriter(
            pool: pool, maxPending: configuration.effectiveMaxPendingWrites, commitDelay: configuration.effectiveCommitDelay, now: configuration.now, node: self.node, metrics: metrics,
            watchedElsewhere: watchedElsewhere)
        listener = PostgresChangeListener(pool: pool, node: self.node, metrics: metrics)
        do {
            try await PostgresSchema.migrate(pool)
        } catch {
            await pool.close()
            throw error
        }
    }

    /// Lets every queued write complete, then closes the connections. Later calls fail with
    /// `.unavailable`. Calling it again does nothing.
    public func close() async {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        await writer.close()
        await pool.close()
    }

    /// Counts this node's announcements and what it hears in the server's `/metrics`.
    func attach(_ metrics: ClusterMetrics) {
        self.metrics.withLockedValue { $0 = metrics }
    }

    /// Hears the cluster's announcements until the calling task is cancelled (see
    /// `PostgresChangeListener`); the kernel tells it which watch buckets to hear (`watch(_:)`).
    let listener: PostgresChangeListener

    func listen(_ events: ClusterEvents) async {
        await listener.run(events)
    }

    func watch(_ buckets: Set<Int>) async {
        await listener.watch(buckets)
    }

    func recordWatchedElsewhere(_ buckets: Set<Int>) {
        watchedElsewhere.withLockedValue { $0 = buckets }
    }

    /// Batches committed so far: `@testable` proof that concurrent writes share transactions.
    var committedBatches: Int { writer.committedBatches }

    /// Writes waiting for the writer's next batch (for tests).
    var pendingWrites: Int { writer.pendingWrites }

    // MARK: Secret

    public func serverSecret() async throws(StoreError) -> [UInt8] {
        let name = SQLiteStore.sessionSecretName
        // Concurrent first calls, on any node, each offer a secret; the first committed stays and all read it back.
        let candidate = ByteBuffer(bytes: SecureRandom.bytes(count: SQLiteStore.sessionSecretByteCount))
        try checkOpen("Reading the server secret")
        let logger = pool.logger
        let secret = try await pool.withConnection("Reading the server secret") { connection in
            try await connection.query(
                "INSERT INTO secrets (name, value) VALUES (\(name), \(candidate)) ON CONFLICT (name) DO NOTHING", logger: logger)
            var found: [UInt8]?
            for try await value in try await connection.query("SELECT value FROM secrets WHERE name = \(name)", logger: logger).decode(ByteBuffer.self) {
                found = Array(value.readableBytesView)
            }
            return found ?? []
        }
        guard secret.count == SQLiteStore.sessionSecretByteCount else {
            throw StoreError(
                .corrupt,
                "The server secret in \(location) (table secrets, row \(name)) is \(secret.count) bytes, not \(SQLiteStore.sessionSecretByteCount). Restore a backup, or delete that row to sign in every user afresh.")
        }
        return secret
    }

    // MARK: Games

    public func loadGames(_ kind: GameKind) async throws(StoreError) -> [StoredGame] {
        let where_ = "\(location), table games"
        return try await read(
            "Loading \(kind.plural)",
            "SELECT id, code, version, state, schedule, record_id FROM games WHERE kind = \(kind.name) ORDER BY id COLLATE \"C\""
        ) { row in
            let (id, code, version, state, schedule, record) = try row.decode((String, String, Int, String, String, String?).self)
            return StoredGame(
                kind: kind, id: id, code: code, version: version, state: .json(state), schedule: schedule,
                record: record.map { GameRecordWrite(id: $0, steps: []) }, location: where_)
        }
    }

    public func connectedElsewhere(_ users: [UserID], seenSince: Instant) async throws(StoreError) -> Bool {
        guard !users.isEmpty else { return false }
        let ids = users.map(\.rawValue)
        return try await !read(
            "Asking which players are connected to other nodes",
            "SELECT 1 FROM presence WHERE user_id = ANY(\(ids)::text[]) AND node <> \(node) AND seen_at >= \(seenSince.millisecondsSinceEpoch) LIMIT 1"
        ) { _ in true }.isEmpty
    }

    /// Records who is connected to this node now (`users`, at `now`) and forgets whoever no longer is,
    /// and what any node reported over an hour ago (a node that died leaves its rows behind).
    func reportConnected(_ users: [UserID], at now: Instant) async throws(StoreError) {
        let ids = users.map(\.rawValue)
        let stamp = now.millisecondsSinceEpoch
        try checkOpen("Reporting who is connected")
        let logger = pool.logger
        _ = try await pool.withConnection("Reporting who is connected") { [node] connection in
            try await connection.withTransaction(logger: logger) { connection in
                try await connection.query("""
                    INSERT INTO presence (user_id, node, seen_at) SELECT u, \(node), \(stamp) FROM unnest(\(ids)::text[]) AS u
                    ON CONFLICT (user_id, node) DO UPDATE SET seen_at = excluded.seen_at
                    """, logger: logger)
                try await connection.query("DELETE FROM presence WHERE node = \(node) AND NOT (user_id = ANY(\(ids)::text[]))", logger: logger)
                // What nodes that are gone (each start is a new node) last reported, after an hour.
                try await connection.query("DELETE FROM presence WHERE seen_at < \(stamp - 3_600_000)", logger: logger)
            }
        }
    }

    /// Games with a scheduled action due before `cutoff`: up to `limit`, the most overdue first.
    func overdueGames(dueBefore cutoff: Instant, limit: Int) async throws(StoreError) -> [(kind: String, id: String)] {
        try await read(
            "Looking for overdue scheduled actions",
            "SELECT kind, id FROM games WHERE due_at < \(cutoff.millisecondsSinceEpoch) ORDER BY due_at LIMIT \(limit)"
        ) { row in
            let (kind, id) = try row.decode((String, String).self)
            return (kind, id)
        }
    }

    public func loadGame(_ kind: GameKind, id: String) async throws(StoreError) -> StoredGame? {
        let where_ = "\(location), table games"
        return try await read(
            "Loading \(kind.noun) \(id)", "SELECT code, version, state, schedule, node, record_id FROM games WHERE kind = \(kind.name) AND id = \(id)"
        ) { row in
            let (code, version, state, schedule, node, record) = try row.decode((String, Int, String, String, String?, String?).self)
            return StoredGame(
                kind: kind, id: id, code: code, version: version, state: .json(state), schedule: schedule, servedBy: node,
                record: record.map { GameRecordWrite(id: $0, steps: []) }, location: where_)
        }.first
    }

    public func loadGame(_ kind: GameKind, code: String) async throws(StoreError) -> StoredGame? {
        let where_ = "\(location), table games"
        return try await read(
            "Loading the \(kind.noun) with code \(code)",
            "SELECT id, version, state, schedule, node, record_id FROM games WHERE kind = \(kind.name) AND code = \(code)"
        ) { row in
            let (id, version, state, schedule, node, record) = try row.decode((String, Int, String, String, String?, String?).self)
            return StoredGame(
                kind: kind, id: id, code: code, version: version, state: .json(state), schedule: schedule, servedBy: node,
                record: record.map { GameRecordWrite(id: $0, steps: []) }, location: where_)
        }.first
    }

    /// Every node of a cluster writes here.
    public var sharedByNodes: Bool { true }

    nonisolated(nonsending) public func saveGame(_ game: StoredGame) async throws(StoreError) {
        try await submit(try SQLiteWrite.save(game))
    }

    nonisolated(nonsending) public func deleteGame(_ kind: GameKind, id: String, version: Int?) async throws(StoreError) {
        try await submit(.deleteGame(kind: kind.name, noun: kind.noun, id: id, version: version))
    }

    public func history(_ kind: GameKind, of user: UserID, before: Instant?, limit: Int) async throws(StoreError) -> [StoredState] {
        let limit = min(max(1, limit), maxHistoryPageSize)
        let before = before?.millisecondsSinceEpoch ?? Int64.max
        return try await read("Loading the \(kind.noun) history of \(user)", """
            SELECT h.state
            FROM history_players AS p JOIN history AS h ON h.id = p.history_id
            WHERE p.user_id = \(user.rawValue) AND p.kind = \(kind.name) AND p.finished_at < \(before)
            ORDER BY p.finished_at DESC, p.history_id DESC
            LIMIT \(limit)
            """) { row in StoredState.json(try row.decode(String.self)) }
    }

    public var backend: StoreBackend { .postgres(self) }

    // MARK: Health

    /// Writes the time into its own row of `secrets`, outside the group commit: proof that the database
    /// can be reached and written now.
    public func checkWritable() async throws(StoreError) {
        let name = SQLiteStore.writeProbeName
        let stamp = withUnsafeBytes(of: Int64(Date().timeIntervalSince1970 * 1000).bigEndian) { ByteBuffer(bytes: $0) }
        try await execute("Checking that the store can write", """
            INSERT INTO secrets (name, value) VALUES (\(name), \(stamp)) ON CONFLICT (name) DO UPDATE SET value = excluded.value
            """)
    }

    // MARK: Plumbing

    nonisolated(nonsending) private func submit(_ write: SQLiteWrite) async throws(StoreError) {
        try checkOpen(write.summary)
        try await writer.submit(write)
    }

    /// The rows of one query, each turned into a value by `decode`.
    func read<T: Sendable>(
        _ doing: String, _ query: PostgresQuery, _ decode: @escaping @Sendable (PostgresRow) throws -> T
    ) async throws(StoreError) -> [T] {
        try checkOpen(doing)
        let logger = pool.logger
        return try await pool.withConnection(doing) { connection in
            var values: [T] = []
            for try await row in try await connection.query(query, logger: logger) {
                values.append(try decode(row))
            }
            return values
        }
    }

    /// One statement, committed on its own; the number of rows it changed.
    @discardableResult
    func execute(_ doing: String, _ query: PostgresQuery) async throws(StoreError) -> Int {
        try await transaction(doing) { connection, logger in try await Self.changes(query, on: connection, logger: logger) }
    }

    /// Several statements in one transaction, committed before this returns (outside the group commit:
    /// accounts, uploads and settings are people's actions, each needing its own answer).
    func transaction<T: Sendable>(
        _ doing: String, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws(StoreError) -> T {
        try checkOpen(doing)
        let logger = pool.logger
        return try await pool.transaction(doing) { connection in try await body(connection, logger) }
    }

    /// Runs a statement and counts the rows it changed (from its command tag, e.g. `INSERT 0 1`).
    static func changes(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        let result: EventLoopFuture<PostgresQueryResult> = connection.query(query, logger: logger)
        return try await result.get().metadata.rows ?? 0
    }

    func checkOpen(_ doing: String) throws(StoreError) {
        if isClosed.load(ordering: .acquiring) {
            throw StoreError(.unavailable, "\(doing) failed: the store for \(location) is closed (the server is shutting down).")
        }
    }
}
#endif
