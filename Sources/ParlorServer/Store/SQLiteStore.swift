import Dispatch
import Foundation
import ParlorSQLite
import ParlorRules
import Synchronization
import SystemTLS

/// The default store: one SQLite file, `parlor.sqlite`, in the data directory.
///
/// Writes are group-committed by `SQLiteWriter` (one transaction and one `fsync` for every write
/// that gathered while the previous commit ran) and return once durable. Reads go through a pool of
/// read connections that, in WAL mode, see the last committed state without waiting for a batch.
///
/// Start-up refuses, rather than works around, a directory it cannot write (`.unavailable`), a file
/// that is not a healthy SQLite database (`.corrupt`) and one written by a newer Parlor
/// (`.newerSchema`): starting empty over an operator's data is the one thing a store must never do.
public final class SQLiteStore: ParlorStore {
    /// The database file's full path, as error reasons name it.
    public let databasePath: String

    private let pool: SQLitePool
    private let writer: SQLiteWriter
    private let maxHistoryPageSize: Int
    private let isClosed = Atomic<Bool>(false)
    /// The time a write outside the group commit is stamped with, as the writer stamps its batches.
    let now: @Sendable () -> Instant

    static let sessionSecretName = "session-token-signing"
    static let sessionSecretByteCount = 32

    /// Opens (creating when missing) `directory/parlor.sqlite` and brings its schema up to date.
    /// Blocks while it opens, checks and migrates the file: call it once, at start-up.
    public init(directory: String, configuration: SQLiteStoreConfiguration = .init()) throws(StoreError) {
        let file = try SQLiteDataDirectory.prepare(directory)
        databasePath = file
        pool = try Self.openPool(file: file, configuration: configuration)
        if configuration.checksIntegrityAtStart {
            try Self.checkIntegrity(pool, file: file)
        }
        try SQLiteSchema.migrate(pool, file: file)
        maxHistoryPageSize = configuration.effectiveMaxHistoryPageSize
        now = configuration.now
        writer = SQLiteWriter(
            pool: pool, file: file, maxPending: configuration.effectiveMaxPendingWrites,
            commitDelay: configuration.effectiveCommitDelay, now: configuration.now)
    }

    /// Lets every write queued so far complete, then closes the database. Writes and reads after
    /// this fail with `.unavailable`. Calling it again does nothing.
    public func close() async {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        await writer.close()
        // `SQLitePool.close()` waits for running reads; keep that wait off the cooperative pool.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue(label: "parlor.store.close").async { [pool] in
                pool.close()
                continuation.resume()
            }
        }
    }

    /// Batches committed so far: `@testable` proof that concurrent writes share transactions.
    var committedBatches: Int { writer.committedBatches }

    /// Writes waiting for the next batch, for tests.
    var pendingWrites: Int { writer.pendingWrites }

    /// True from the moment `close()` begins, for tests.
    var isClosing: Bool { isClosed.load(ordering: .acquiring) }

    // MARK: ParlorStore

    public var backend: StoreBackend { .sqlite(self) }

    public func serverSecret() async throws(StoreError) -> [UInt8] {
        let name = Self.sessionSecretName
        if let secret = try await read("Reading the server secret", { db in
            try Data.fetchOne(db, sql: "SELECT value FROM secrets WHERE name = ?", arguments: [name])
        }) {
            return try validSecret(secret)
        }
        // Concurrent first calls each offer a secret; the first committed stays and all read it back.
        let candidate = SecureRandom.bytes(count: Self.sessionSecretByteCount)
        let secret = try await write("Creating the server secret") { db in
            try db.execute(
                sql: "INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                arguments: [name, Data(candidate)])
            return try Data.fetchOne(db, sql: "SELECT value FROM secrets WHERE name = ?", arguments: [name])
        }
        return try validSecret(secret ?? Data())
    }

    public func loadGames(_ kind: GameKind) async throws(StoreError) -> [StoredGame] {
        let location = "\(databasePath), table games"
        return try await read("Loading \(kind.plural)") { db in
            try SQLiteRow.fetchAll(
                db, sql: "SELECT id, code, version, state, schedule, record_id FROM games WHERE kind = ? ORDER BY id",
                arguments: [kind.name]
            ).map {
                StoredGame(
                    kind: kind, id: try $0.decode(String.self, forColumn: "id"),
                    code: try $0.decode(String.self, forColumn: "code"),
                    version: try $0.decode(Int.self, forColumn: "version"),
                    state: .json(try $0.decode(String.self, forColumn: "state")),
                    schedule: try $0.decode(String.self, forColumn: "schedule"),
                    record: try $0.decode(String?.self, forColumn: "record_id").map { GameRecordWrite(id: $0, steps: []) },
                    location: location)
            }
        }
    }

    nonisolated(nonsending) public func saveGame(_ game: StoredGame) async throws(StoreError) {
        try await submit(try SQLiteWrite.save(game))
    }

    nonisolated(nonsending) public func deleteGame(_ kind: GameKind, id: String, version: Int?) async throws(StoreError) {
        try await submit(.deleteGame(kind: kind.name, noun: kind.noun, id: id, version: version))
    }

    public func history(
        _ kind: GameKind, of user: UserID, before: Instant?, limit: Int
    ) async throws(StoreError) -> [StoredState] {
        let limit = min(max(1, limit), maxHistoryPageSize)
        let before = before?.millisecondsSinceEpoch ?? Int64.max
        return try await read("Loading the \(kind.noun) history of \(user)") { db in
            try String.fetchAll(db, sql: Self.historyQuery, arguments: [user.rawValue, kind.name, before, limit])
                .map { StoredState.json($0) }
        }
    }

    /// A player's page of one kind's history: one range of `history_players_by_user`, no sort step.
    static let historyQuery = """
        SELECT h.state
        FROM history_players AS p JOIN history AS h ON h.id = p.history_id
        WHERE p.user_id = ? AND p.kind = ? AND p.finished_at < ?
        ORDER BY p.finished_at DESC, p.history_id DESC
        LIMIT ?
        """

    /// Writes the time into a row of its own in `secrets` (the store's small key-value table; the row
    /// is never read), outside the group commit, durable as any save.
    public func checkWritable() async throws(StoreError) {
        let name = Self.writeProbeName
        let stamp = Int64(Date().timeIntervalSince1970 * 1000)
        try await write("Checking that the store can write") { db in
            try db.execute(
                sql: "INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                arguments: [name, withUnsafeBytes(of: stamp.bigEndian) { Data($0) }])
        }
    }

    static let writeProbeName = "write-probe"

    // MARK: Plumbing

    nonisolated(nonsending) private func submit(_ write: SQLiteWrite) async throws(StoreError) {
        // Refused from the moment `close()` begins, while the writer still drains what came before.
        try checkOpen(write.summary)
        try await writer.submit(write)
    }

    func read<T: Sendable>(
        _ doing: String, _ body: @escaping @Sendable (SQLiteConnection) throws -> T
    ) async throws(StoreError) -> T {
        try checkOpen(doing)
        do {
            return try await pool.read(body)
        } catch {
            throw SQLiteErrorMapping.storeError(error, doing: doing, file: databasePath)
        }
    }

    /// Outside the group commit: for rare writes (the secret, a game's own records) and tests' hooks.
    func write<T: Sendable>(
        _ doing: String, _ body: @escaping @Sendable (SQLiteConnection) throws -> T
    ) async throws(StoreError) -> T {
        try checkOpen(doing)
        do {
            return try await pool.write(body)
        } catch {
            throw SQLiteErrorMapping.storeError(error, doing: doing, file: databasePath)
        }
    }

    private func checkOpen(_ doing: String) throws(StoreError) {
        if isClosed.load(ordering: .acquiring) {
            throw StoreError(.unavailable, "\(doing) failed: the store for \(databasePath) is closed (the server is shutting down).")
        }
    }

    private func validSecret(_ secret: Data) throws(StoreError) -> [UInt8] {
        guard secret.count == Self.sessionSecretByteCount else {
            throw StoreError(
                .corrupt,
                "The server secret in \(databasePath) (table secrets, row \(Self.sessionSecretName)) is \(secret.count) bytes, not \(Self.sessionSecretByteCount). Restore a backup, or delete that row to sign in every user afresh.")
        }
        return Array(secret)
    }
}
