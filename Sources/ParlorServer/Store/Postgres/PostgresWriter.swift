// Built only with the PostgreSQL trait (`swift build --traits PostgreSQL`): see Package.swift.
#if PostgreSQL
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
///
/// Under load the next batch waits `commitDelay` first, as `SQLiteWriter`'s does: when the batch just
/// committed held several writes and more were queued while it committed, writes are arriving faster
/// than commits, and waiting lets more of them share the next one. A commit costs PostgreSQL and this
/// node about a millisecond of CPU whatever it holds (docs/BENCHMARKS.md, "A commit's cost, and what
/// waiting for more saves buys"), so fewer, larger commits are what keeps a busy cluster's CPU per
/// change down. A write that finds the writer idle, or follows a batch of one, never waits.
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
    /// How long a batch under load waits for more writes (nil: never).
    private let commitDelay: Duration?
    private let now: @Sendable () -> Instant
    /// This node, in its announcements, so that it can ignore its own.
    private let node: String
    private let metrics: NIOLockedValueBox<ClusterMetrics?>
    /// The watch buckets other nodes listen to (nil: announce on every bucket).
    private let watchedElsewhere: NIOLockedValueBox<Set<Int>?>

    init(
        pool: PostgresPool, maxPending: Int, commitDelay: Duration? = nil, now: @escaping @Sendable () -> Instant, node: String,
        metrics: NIOLockedValueBox<ClusterMetrics?>, watchedElsewhere: NIOLockedValueBox<Set<Int>?> = NIOLockedValueBox(nil)
    ) {
        self.pool = pool
        self.maxPending = maxPending
        self.commitDelay = commitDelay
        self.now = now
        self.node = node
        self.metrics = metrics
        self.watchedElsewhere = watchedElsewhere
    }

    /// Transactions committed so far (for tests: proof that writes were batched).
    var committedBatches: Int { state.withLock { $0.committedBatches } }

    /// Writes waiting for the next batch (for tests that need writes to gather).
    var pendingWrites: Int { state.withLock { $0.pending.count } }

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
        var lingering = false
        while true {
            // (The drainer is never cancelled; a sleep cut short would only commit sooner.)
            if lingering, let commitDelay { try? await Task.sleep(for: commitDelay) }
            let batch = state.withLock { state in
                defer { state.pending = [] }
                return state.pending
            }
            let outcome = await commit(batch.map(\.write))
            let failure = outcome.failure
            // Counted before any saver hears, so a test that awaits its saves reads the count settled.
            // Saves already queued now came while this batch committed: under load, the next waits.
            let queuedBehind = state.withLock { state in
                if failure == nil { state.committedBatches += 1 }
                return !state.pending.isEmpty
            }
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
                guard state.pending.isEmpty else { return false }
                state.isDraining = false
                return true
            }
            if done { return }
            lingering = batch.count > 1 && queuedBehind
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
        let batch = Batch(last, records: RecordBatch(writes))
        do {
            let conflicted = try await pool.withConnection(doing) { connection in
                // Games' saves alone (the usual batch) are one statement, committed on its own: one
                // round trip. Filing finished games goes with them in one transaction.
                guard !archiving.isEmpty else {
                    return try await batch.apply(node: node, stamp: stamp, on: connection, logger: logger)
                }
                return try await connection.withTransaction(logger: logger) { connection in
                    let conflicted = try await batch.apply(node: node, stamp: stamp, on: connection, logger: logger)
                    // Filed only with a save that took: a game that lost its race did not finish here.
                    for game in archiving where !conflicted.contains(.game(kind: game.kind, id: game.id)) {
                        try await Self.file(game, in: connection, logger: logger)
                    }
                    return conflicted
                }
            }
            return Outcome(
                conflicted: conflicted,
                announcements: Self.announcements(
                    of: last, except: conflicted, by: node, at: GameChange.wallClockMicroseconds(),
                    watched: watchedElsewhere.withLockedValue { $0 }))
        } catch {
            return Outcome(failure: error)
        }
    }

    /// What the other nodes are told of a committed batch (unless a save lost its race): each game
    /// saved, at its new version and — when it fits — with its state, on its watch bucket when another
    /// node listens to it (`watched`; nil: always), and on its serving node's own channel when that is
    /// another node; each game deleted on the channel every node hears (`HomeChange.deleted`:
    /// deletions are rare, and every node holding the game must let it go). A node serving its own games with nobody watching them elsewhere
    /// announces nothing.
    static func announcements(
        of writes: [SQLiteWrite], except conflicted: Set<SQLiteWrite.Key>, by node: String, at committedAt: Int64, watched: Set<Int>? = nil
    ) -> [Announcement] {
        var announcements: [Announcement] = []
        for write in writes {
            switch write {
            case .saveGame(let game) where !conflicted.contains(.game(kind: game.kind, id: game.id)):
                let bucket = ClusterChannel.bucket(kind: game.kind, id: game.id)
                let home = game.servedBy.flatMap { $0 == node ? nil : $0 }
                let heard = watched?.contains(bucket) ?? true
                guard heard || home != nil else { continue }
                let payload = GameChange(
                    node: node, kind: game.kind, id: game.id, version: game.version, committedAt: committedAt,
                    body: GameChange.Body(schedule: game.schedule, state: game.state)
                ).payload
                if heard { announcements.append(Announcement(channel: ClusterChannel.watch(bucket), payload: payload)) }
                if let home { announcements.append(Announcement(channel: ClusterChannel.node(home), payload: payload)) }
            case .deleteGame(let kind, _, let id, _) where !conflicted.contains(.game(kind: kind, id: id)):
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

    /// One batch's writes as `parlor_save_games` takes them (`PostgresSchema.saveGamesFunction`). A node saves one game at a time (its actor awaits each save), so a batch
    /// holds at most one version-checked save per game.
    private struct Batch: Sendable {
        var kinds: [String] = []
        var ids: [String] = []
        var codes: [String] = []
        var versions: [Int] = []
        var states: [String] = []
        var schedules: [String] = []
        /// The version each save replaces; -1 for a new game, -2 for whatever is stored.
        var expected: [Int] = []
        var deletedKinds: [String] = []
        var deletedIDs: [String] = []
        /// -1: whatever is stored.
        var deletedVersions: [Int] = []
        /// The games' record rows, from every write of the batch (not only the last of each game).
        var records: RecordBatch

        init(_ writes: [SQLiteWrite], records: RecordBatch) {
            self.records = records
            for write in writes {
                switch write {
                case .saveGame(let game):
                    kinds.append(game.kind)
                    ids.append(game.id)
                    codes.append(game.code)
                    versions.append(game.version)
                    states.append(game.state)
                    schedules.append(game.schedule)
                    switch game.replacing {
                    case .anything: expected.append(-2)
                    case .nothing: expected.append(-1)
                    case .version(let version): expected.append(version)
                    }
                case .deleteGame(let kind, _, let id, let version):
                    deletedKinds.append(kind)
                    deletedIDs.append(id)
                    deletedVersions.append(version ?? -1)
                }
            }
        }

        /// Applies the games' writes; returns the ones that found another version stored (or, for a
        /// new game, a game already there): they changed nothing.
        func apply(node: String, stamp: Int64, on connection: PostgresConnection, logger: Logger) async throws -> Set<SQLiteWrite.Key> {
            guard !ids.isEmpty || !deletedIDs.isEmpty else { return [] }
            let r = records
            let rows = try await connection.query("""
                SELECT conflicted_kind, conflicted_id FROM parlor_save_recorded(\(node), \(stamp),
                    \(kinds)::text[], \(ids)::text[], \(codes)::text[], \(versions)::bigint[], \(states)::text[], \(schedules)::text[],
                    \(expected)::bigint[], \(deletedKinds)::text[], \(deletedIDs)::text[], \(deletedVersions)::bigint[],
                    \(r.openedIDs)::text[], \(r.openedKinds)::text[], \(r.openedGames)::text[], \(r.openedCodes)::text[],
                    \(r.openedAt)::bigint[], \(r.openedStates)::text[], \(r.openedVersions)::bigint[], \(r.openedAccess)::text[],
                    \(r.stepRecords)::text[], \(r.stepKinds)::text[], \(r.stepGames)::text[], \(r.steps)::bigint[], \(r.stepActors)::text[],
                    \(r.stepAt)::bigint[], \(r.stepActions)::text[], \(r.stepVersions)::bigint[], \(r.stepEnvironments)::text[],
                    \(r.finishedRecords)::text[], \(r.finishedKinds)::text[], \(r.finishedGames)::text[], \(r.finishedAt)::bigint[],
                    \(r.finishedKeys)::text[])
                """, logger: logger)
            var conflicted = Set<SQLiteWrite.Key>()
            for try await (kind, id) in rows.decode((String, String).self) {
                conflicted.insert(.game(kind: kind, id: id))
            }
            return conflicted
        }
    }

    /// The record rows of a batch's writes, as `parlor_save_recorded` takes them: every save's steps
    /// (a batch's writes are not collapsed for records), new records' heads, filed games' records.
    struct RecordBatch: Sendable {
        var openedIDs: [String] = [], openedKinds: [String] = [], openedGames: [String] = [], openedCodes: [String] = []
        var openedAt: [Int64] = [], openedStates: [String] = [], openedVersions: [Int] = []
        /// '' for an open game.
        var openedAccess: [String] = []
        var stepRecords: [String] = [], stepKinds: [String] = [], stepGames: [String] = [], steps: [Int] = []
        /// '' for the clock.
        var stepActors: [String] = [], stepAt: [Int64] = [], stepActions: [String] = [], stepVersions: [Int] = []
        /// '' when the step read nothing from the environment.
        var stepEnvironments: [String] = []
        var finishedRecords: [String] = [], finishedKinds: [String] = [], finishedGames: [String] = []
        var finishedAt: [Int64] = [], finishedKeys: [String] = []

        init(_ writes: [SQLiteWrite]) {
            for case .saveGame(let game) in writes {
                guard let record = game.record else { continue }
                if let opening = record.opening {
                    openedIDs.append(record.id)
                    openedKinds.append(game.kind)
                    openedGames.append(game.id)
                    openedCodes.append(game.code)
                    openedAt.append(opening.createdAt)
                    openedStates.append(opening.initialState)
                    openedVersions.append(opening.initialVersion)
                    openedAccess.append(opening.access ?? "")
                }
                for step in record.steps {
                    stepRecords.append(record.id)
                    stepKinds.append(game.kind)
                    stepGames.append(game.id)
                    steps.append(step.step)
                    stepActors.append(step.actor ?? "")
                    stepAt.append(step.at)
                    stepActions.append(step.action)
                    stepVersions.append(step.version)
                    stepEnvironments.append(step.environment ?? "")
                }
                if let archive = game.archive {
                    finishedRecords.append(record.id)
                    finishedKinds.append(game.kind)
                    finishedGames.append(game.id)
                    finishedAt.append(archive.finishedAt)
                    finishedKeys.append(archive.key)
                }
            }
        }
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
#endif
