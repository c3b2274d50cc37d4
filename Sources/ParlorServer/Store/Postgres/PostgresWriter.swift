import Logging
import NIOConcurrencyHelpers
import ParlorRules
import PostgresNIO
import Synchronization

/// Group commit on PostgreSQL: the same contract as `SQLiteWriter` — a write returns once committed,
/// and every write that gathered while one transaction ran shares the next — with the batch sent as a
/// few statements over arrays (`unnest`), so a hundred saves cost one round trip, not a hundred.
///
/// One batch runs at a time (a task of its own), on a pooled connection; the games' saves are already
/// encoded (`SQLiteWrite`, the store-neutral form of a queued write). A batch that fails, fails every
/// write in it: nothing in it is committed unless all of it is.
final class PostgresWriter: Sendable {
    private struct Waiter: Sendable {
        var write: SQLiteWrite
        var continuation: CheckedContinuation<Result<Void, StoreError>, Never>
    }

    private struct State {
        var pending: [Waiter] = []
        var isDraining = false
        var isClosed = false
        var committedBatches = 0
        var drainer: Task<Void, Never>?
    }

    private let state = Mutex(State())
    private let pool: PostgresPool
    private let maxPending: Int
    private let now: @Sendable () -> Instant
    /// This node, in its announcements, so that it can ignore its own.
    private let node: String
    private let metrics: NIOLockedValueBox<ClusterMetrics?>

    init(
        pool: PostgresPool, maxPending: Int, now: @escaping @Sendable () -> Instant, node: String,
        metrics: NIOLockedValueBox<ClusterMetrics?>
    ) {
        self.pool = pool
        self.maxPending = maxPending
        self.now = now
        self.node = node
        self.metrics = metrics
    }

    /// Transactions committed so far (for tests: proof that writes were batched).
    var committedBatches: Int { state.withLock { $0.committedBatches } }

    /// Returns once the write is committed, or throws why it is not.
    nonisolated(nonsending) func submit(_ write: SQLiteWrite) async throws(StoreError) {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, StoreError>, Never>) in
            let refusal: StoreError? = state.withLock { state in
                if state.isClosed {
                    return StoreError(.unavailable, "\(write.summary) failed: the store for \(pool.location) is closed (the server is shutting down).")
                }
                guard state.pending.count < maxPending else {
                    return StoreError(
                        .unreachable,
                        "\(write.summary) failed: \(maxPending) writes are already waiting for PostgreSQL at \(pool.location). The database is not keeping up; check its health and load.")
                }
                state.pending.append(Waiter(write: write, continuation: continuation))
                if !state.isDraining {
                    state.isDraining = true
                    state.drainer = Task { await self.drain() }
                }
                return nil
            }
            if let refusal { continuation.resume(returning: .failure(refusal)) }
        }
        try outcome.get()
    }

    /// Refuses new writes, and returns once every write queued before has completed.
    func close() async {
        let drainer = state.withLock { state in
            state.isClosed = true
            return state.drainer
        }
        await drainer?.value
    }

    private func drain() async {
        while true {
            let batch = state.withLock { state in
                defer { state.pending = [] }
                return state.pending
            }
            let outcome = await commit(batch.map(\.write))
            let failure = outcome.failure
            for waiter in batch {
                if let failure {
                    waiter.continuation.resume(returning: .failure(
                        StoreError(failure.kind, failure.reason + (batch.count > 1 ? " (in a batch of \(batch.count))" : ""))))
                } else if outcome.conflicted.contains(waiter.write.key) {
                    waiter.continuation.resume(returning: .failure(StoreError(
                        .conflict, "\(waiter.write.summary) found another version stored: another node saved it first. Nothing was written.")))
                } else {
                    waiter.continuation.resume(returning: .success(()))
                }
            }
            // The savers have their answers; only now are the other nodes told, so no save waits for
            // the notification's round trip (the next batch does, which keeps announcements in commit
            // order).
            if !outcome.announcements.isEmpty { await announce(outcome.announcements) }
            let done = state.withLock { state in
                if failure == nil { state.committedBatches += 1 }
                guard state.pending.isEmpty else { return false }
                state.isDraining = false
                return true
            }
            if done { return }
        }
    }

    /// How a batch went: failed as a whole, or committed with some saves that lost a race, and what
    /// to announce.
    private struct Outcome {
        var failure: StoreError?
        var conflicted: Set<SQLiteWrite.Key> = []
        var announcements: [Announcement] = []
    }

    /// One notification: its channel and payload.
    struct Announcement: Sendable, Equatable {
        var channel: String
        var payload: String
    }

    private func commit(_ writes: [SQLiteWrite]) async -> Outcome {
        let (archiving, last) = SQLiteWrite.collapsed(writes)
        let stamp = now().millisecondsSinceEpoch
        let doing = writes.count == 1 ? writes[0].summary : "Saving \(writes.count) writes"
        let logger = pool.logger
        let node = node
        do {
            let conflicted = try await pool.withConnection(doing) { connection in
                let conflicted = try await connection.withTransaction(logger: logger) { connection in
                    let conflicted = try await Self.apply(last, stamp: stamp, node: node, in: connection, logger: logger)
                    // Filed only with a save that took: a game that lost its race did not finish here.
                    for game in archiving where !conflicted.contains(.game(kind: game.kind, id: game.id)) {
                        try await Self.file(game, in: connection, logger: logger)
                    }
                    return conflicted
                }
                return conflicted
            }
            return Outcome(
                conflicted: conflicted,
                announcements: Self.announcements(of: last, except: conflicted, by: node, at: GameChange.wallClockMicroseconds()))
        } catch {
            return Outcome(failure: error)
        }
    }

    /// What the other nodes are told of a committed batch (unless a save lost its race): each game
    /// saved, at its new version and — when it fits — with its state, on its watch bucket, and on its
    /// serving node's own channel when that is another node; each game deleted, as
    /// `GameChange.deleted`, on its bucket, and on the channel every node hears (`HomeChange.deleted`:
    /// deletions are rare, and the node that serves the game must hear of one made elsewhere).
    static func announcements(
        of writes: [SQLiteWrite], except conflicted: Set<SQLiteWrite.Key>, by node: String, at committedAt: Int64
    ) -> [Announcement] {
        var announcements: [Announcement] = []
        for write in writes {
            switch write {
            case .saveGame(let game) where !conflicted.contains(.game(kind: game.kind, id: game.id)):
                let payload = GameChange(
                    node: node, kind: game.kind, id: game.id, version: game.version, committedAt: committedAt,
                    body: GameChange.Body(schedule: game.schedule, state: game.state)
                ).payload
                announcements.append(Announcement(channel: ClusterChannel.watch(ClusterChannel.bucket(kind: game.kind, id: game.id)), payload: payload))
                if let home = game.servedBy, home != node {
                    announcements.append(Announcement(channel: ClusterChannel.node(home), payload: payload))
                }
            case .deleteGame(let kind, _, let id, _) where !conflicted.contains(.game(kind: kind, id: id)):
                let payload = GameChange(node: node, kind: kind, id: id, version: GameChange.deleted, committedAt: committedAt).payload
                announcements.append(Announcement(channel: ClusterChannel.watch(ClusterChannel.bucket(kind: kind, id: id)), payload: payload))
                announcements.append(Announcement(channel: ClusterChannel.homes, payload: HomeChange.deleted(node: node, kind: kind, id: id).payload))
            default:
                break
            }
        }
        return announcements
    }

    /// Tells the other nodes what a batch committed: one statement after the commit, on a connection
    /// of its own, so PostgreSQL's notification queue lock is taken once per batch and never while the
    /// batch's rows are locked. A failure here does not fail the saves (they are stored); other nodes'
    /// subscribers then see the game with its next announced version.
    private func announce(_ announcements: [Announcement]) async {
        let metrics = metrics.withLockedValue { $0 }
        let logger = pool.logger
        let channels = announcements.map(\.channel)
        let payloads = announcements.map(\.payload)
        do {
            _ = try await pool.withConnection("Announcing \(announcements.count) committed changes") { connection in
                try await connection.query(
                    "SELECT pg_notify(c, p) FROM unnest(\(channels)::text[], \(payloads)::text[]) AS a (c, p)", logger: logger)
            }
            metrics?.notificationsSent.increment(by: Int64(announcements.count))
        } catch {
            metrics?.notificationsFailed.increment(by: Int64(announcements.count))
            logger.warning(
                "Committed game versions could not be announced to the other nodes",
                metadata: ["count": "\(announcements.count)", "cause": "\(String(reflecting: error))"])
        }
    }

    /// Columns of the games saved in one statement.
    private struct Saves {
        var kinds: [String] = []
        var ids: [String] = []
        var codes: [String] = []
        var versions: [Int] = []
        var states: [String] = []
        var schedules: [String] = []
        var expected: [Int] = []

        var isEmpty: Bool { ids.isEmpty }

        var keys: Set<SQLiteWrite.Key> { Set(zip(kinds, ids).map { SQLiteWrite.Key.game(kind: $0, id: $1) }) }

        mutating func append(_ game: SQLiteWrite.SavedGame, expecting version: Int = 0) {
            kinds.append(game.kind)
            ids.append(game.id)
            codes.append(game.code)
            versions.append(game.version)
            states.append(game.state)
            schedules.append(game.schedule)
            expected.append(version)
        }
    }

    /// Applies the batch; returns the games whose saves found another version stored (or, for a new
    /// game, a game already there): they changed nothing. A node saves one game at a time (its actor
    /// awaits each save), so a batch holds at most one version-checked save per game.
    private static func apply(
        _ writes: [SQLiteWrite], stamp: Int64, node: String, in connection: PostgresConnection, logger: Logger
    ) async throws -> Set<SQLiteWrite.Key> {
        var saved = Saves()
        var created = Saves()
        var updated = Saves()
        /// Version -1: whatever is stored.
        var deleted: (kinds: [String], ids: [String], versions: [Int]) = ([], [], [])
        // In one order on every node (kind, then id), so that two nodes' batches touching the same
        // games take their rows' locks in the same order and never wait for each other in a circle —
        // PostgreSQL would end one of them as a deadlock, failing every save in it.
        let writes = writes.sorted { $0.key < $1.key }
        let existing = writes.compactMap { write -> (String, String)? in
            switch write {
            case .saveGame(let game) where game.replacing != .nothing: (game.kind, game.id)
            case .deleteGame(let kind, _, let id, _): (kind, id)
            default: nil
            }
        }
        if existing.count > 1 {
            try await connection.query("""
                SELECT 1 FROM games AS g
                JOIN unnest(\(existing.map(\.0))::text[], \(existing.map(\.1))::text[]) AS k (kind, id) ON g.kind = k.kind AND g.id = k.id
                ORDER BY g.kind, g.id FOR UPDATE OF g
                """, logger: logger)
        }
        for write in writes {
            switch write {
            case .saveGame(let game):
                switch game.replacing {
                case .anything: saved.append(game)
                case .nothing: created.append(game)
                case .version(let version): updated.append(game, expecting: version)
                }
            case .deleteGame(let kind, _, let id, let version):
                deleted.kinds.append(kind)
                deleted.ids.append(id)
                deleted.versions.append(version ?? -1)
            case .saveCatalog(let version, let payload):
                try await connection.query("""
                    INSERT INTO catalogs (version, payload, stored_at) VALUES (\(version), \(payload), \(stamp))
                    ON CONFLICT (version) DO UPDATE SET payload = excluded.payload, stored_at = excluded.stored_at
                    """, logger: logger)
            }
        }
        if !saved.isEmpty {
            try await connection.query("""
                INSERT INTO games (kind, id, code, version, state, schedule, updated_at, due_at)
                SELECT kind, id, code, version, state, schedule, \(stamp), \(unescaped: PostgresSchema.dueAt("schedule"))
                FROM unnest(\(saved.kinds)::text[], \(saved.ids)::text[], \(saved.codes)::text[], \(saved.versions)::bigint[],
                    \(saved.states)::text[], \(saved.schedules)::text[]) AS s (kind, id, code, version, state, schedule)
                ON CONFLICT (kind, id) DO UPDATE SET
                    code = excluded.code, version = excluded.version, state = excluded.state,
                    schedule = excluded.schedule, updated_at = excluded.updated_at, due_at = excluded.due_at
                """, logger: logger)
        }
        var conflicted = Set<SQLiteWrite.Key>()
        if !deleted.ids.isEmpty {
            // A delete as of a version the game no longer has (another node changed it, or deleted it
            // first) deletes nothing, as a save that lost its race saves nothing.
            let taken = try await keys(of: connection.query("""
                DELETE FROM games AS g
                USING unnest(\(deleted.kinds)::text[], \(deleted.ids)::text[], \(deleted.versions)::bigint[]) AS d (kind, id, version)
                WHERE g.kind = d.kind AND g.id = d.id AND (d.version < 0 OR g.version = d.version)
                RETURNING g.kind, g.id
                """, logger: logger))
            for index in deleted.ids.indices where deleted.versions[index] >= 0 {
                let key = SQLiteWrite.Key.game(kind: deleted.kinds[index], id: deleted.ids[index])
                if !taken.contains(key) { conflicted.insert(key) }
            }
        }
        if !created.isEmpty {
            // A new game is served by the node that created it: its creator is connected here.
            let taken = try await keys(of: connection.query("""
                INSERT INTO games (kind, id, code, version, state, schedule, updated_at, due_at, node)
                SELECT kind, id, code, version, state, schedule, \(stamp), \(unescaped: PostgresSchema.dueAt("schedule")), \(node)
                FROM unnest(\(created.kinds)::text[], \(created.ids)::text[], \(created.codes)::text[], \(created.versions)::bigint[],
                    \(created.states)::text[], \(created.schedules)::text[]) AS s (kind, id, code, version, state, schedule)
                ON CONFLICT DO NOTHING
                RETURNING kind, id
                """, logger: logger))
            conflicted.formUnion(created.keys.subtracting(taken))
        }
        if !updated.isEmpty {
            // The row lock each UPDATE takes serialises two nodes saving one game: the second waits,
            // then finds the version moved on and changes nothing.
            let taken = try await keys(of: connection.query("""
                UPDATE games AS g SET code = s.code, version = s.version, state = s.state, schedule = s.schedule, updated_at = \(stamp),
                    due_at = \(unescaped: PostgresSchema.dueAt("s.schedule"))
                FROM unnest(\(updated.kinds)::text[], \(updated.ids)::text[], \(updated.codes)::text[], \(updated.versions)::bigint[],
                    \(updated.states)::text[], \(updated.schedules)::text[], \(updated.expected)::bigint[])
                    AS s (kind, id, code, version, state, schedule, expected)
                WHERE g.kind = s.kind AND g.id = s.id AND g.version = s.expected
                RETURNING g.kind, g.id
                """, logger: logger))
            conflicted.formUnion(updated.keys.subtracting(taken))
        }
        return conflicted
    }

    private static func keys(of rows: PostgresRowSequence) async throws -> Set<SQLiteWrite.Key> {
        var keys = Set<SQLiteWrite.Key>()
        for try await (kind, id) in rows.decode((String, String).self) {
            keys.insert(.game(kind: kind, id: id))
        }
        return keys
    }

    /// Files the game once: (kind, archive key) names a finished game among every game ever played.
    private static func file(_ game: SQLiteWrite.SavedGame, in connection: PostgresConnection, logger: Logger) async throws {
        guard let archive = game.archive else { return }
        let inserted = try await connection.query("""
            INSERT INTO history (kind, game_key, finished_at, state) VALUES (\(game.kind), \(archive.key), \(archive.finishedAt), \(game.state))
            ON CONFLICT (kind, game_key) DO NOTHING RETURNING id
            """, logger: logger).collect()
        guard let row = inserted.first else { return }
        let historyID = try row.decode(Int64.self)
        for user in archive.players {
            try await connection.query("""
                INSERT INTO history_players (history_id, user_id, kind, finished_at, tally)
                VALUES (\(historyID), \(user), \(game.kind), \(archive.finishedAt), \(archive.tallies[user]))
                ON CONFLICT DO NOTHING
                """, logger: logger)
        }
    }
}
