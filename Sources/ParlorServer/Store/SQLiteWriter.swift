import Foundation
import ParlorSQLite
import ParlorRules
import Synchronization

/// Group commit: every write waits in one queue, and a single writer commits whatever has gathered
/// as one transaction, so N rooms saving at once cost about one `fsync`, not N.
///
/// A caller queues its write and suspends. When no batch is in flight, the first write schedules one
/// on the pool's serial writer queue (a dispatch thread, never the cooperative pool, whose few threads
/// must not wait for a disk). The batch takes *everything* queued, applies it in one transaction,
/// commits, and resumes each caller with the outcome. Writes that arrive meanwhile gather for the
/// next batch, which is scheduled as soon as this one ends. Each batch is a separate job on the writer's
/// queue, so other writer work (creating the secret, tests' hooks) takes its turn between batches.
///
/// A batch that fails, fails every write in it with the same cause: nothing in a batch is committed
/// unless all of it is, and the writes of one batch fail for reasons they share (a full disk, an I/O
/// error). The next batch starts afresh.
///
/// A write, once queued, always completes: cancelling the caller's task does not withdraw it, since
/// the caller must learn whether its change is durable.
final class SQLiteWriter: Sendable {
    typealias Outcome = Result<Void, StoreError>

    private struct Waiter: Sendable {
        var write: SQLiteWrite
        var continuation: CheckedContinuation<Outcome, Never>
    }

    private struct State {
        var pending: [Waiter] = []
        /// A batch is scheduled or running; it schedules the next one itself when writes are waiting.
        var isDraining = false
        var isClosed = false
        var committedBatches = 0
        /// `close()` callers waiting for the last batch to finish.
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private enum Admission {
        case rejected(StoreError)
        case joinedBatch
        case startsBatch
    }

    private let state = Mutex(State())
    private let pool: SQLitePool
    private let file: String
    private let maxPending: Int
    private let now: @Sendable () -> Instant
    /// Seconds a batch that follows a busy one waits before it takes the queue (nil: not at all).
    private let commitDelay: TimeInterval?

    init(
        pool: SQLitePool, file: String, maxPending: Int, commitDelay: Duration?,
        now: @escaping @Sendable () -> Instant
    ) {
        self.pool = pool
        self.file = file
        self.maxPending = maxPending
        self.now = now
        self.commitDelay = commitDelay?.seconds
    }

    /// Transactions committed so far (for tests: proof that writes were batched).
    var committedBatches: Int { state.withLock { $0.committedBatches } }

    /// Writes waiting for the next batch (for tests that need writes to gather).
    var pendingWrites: Int { state.withLock { $0.pending.count } }

    /// Returns once the write is durable, or throws why it is not.
    nonisolated(nonsending) func submit(_ write: SQLiteWrite) async throws(StoreError) {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let admission = state.withLock { state -> Admission in
                if state.isClosed {
                    return .rejected(StoreError(
                        .unavailable,
                        "\(write.summary) failed: the store for \(file) is closed (the server is shutting down)."))
                }
                guard state.pending.count < maxPending else {
                    return .rejected(StoreError(
                        .unavailable,
                        "\(write.summary) failed: \(maxPending) writes are already waiting for the disk holding \(file). The disk is not keeping up; check its health and load."))
                }
                state.pending.append(Waiter(write: write, continuation: continuation))
                if state.isDraining { return .joinedBatch }
                state.isDraining = true
                return .startsBatch
            }
            switch admission {
            case .rejected(let error): continuation.resume(returning: .failure(error))
            case .joinedBatch: break
            case .startsBatch: scheduleBatch()
            }
        }
        try outcome.get()
    }

    /// Refuses new writes, and returns once every write queued before has completed.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isIdle = state.withLock { state in
                state.isClosed = true
                if state.isDraining { state.closeWaiters.append(continuation) }
                return !state.isDraining
            }
            if isIdle { continuation.resume() }
        }
    }

    /// `lingering`: the batch before had several writes, so writes are arriving faster than the disk
    /// commits them; waiting `commitDelay` lets more of them share the next commit (and its `fsync`).
    /// The writer thread sleeps: it is the pool's own, never one of the cooperative pool's.
    private func scheduleBatch(lingering: Bool = false) {
        pool.asyncWriteWithoutTransaction { db in
            if lingering, let delay = self.commitDelay { Thread.sleep(forTimeInterval: delay) }
            self.commitBatch(db)
        }
    }

    /// Runs on the pool's writer queue.
    private func commitBatch(_ db: SQLiteConnection) {
        let batch = state.withLock { state in
            let batch = state.pending
            state.pending = []
            return batch
        }
        let failure = commit(batch.map(\.write), in: db)
        let (scheduleNext, closeWaiters) = state.withLock { state in
            if failure == nil { state.committedBatches += 1 }
            if !state.pending.isEmpty { return (true, [CheckedContinuation<Void, Never>]()) }
            state.isDraining = false
            defer { state.closeWaiters = [] }
            return (false, state.closeWaiters)
        }
        for waiter in batch {
            waiter.continuation.resume(returning: failure.map { error in
                .failure(SQLiteErrorMapping.storeError(
                    error, doing: waiter.write.summary + (batch.count > 1 ? " (in a batch of \(batch.count))" : ""),
                    file: file))
            } ?? .success(()))
        }
        for waiter in closeWaiters { waiter.resume() }
        if scheduleNext { scheduleBatch(lingering: batch.count > 1) }
    }

    /// Nil when the batch committed.
    private func commit(_ writes: [SQLiteWrite], in db: SQLiteConnection) -> (any Error)? {
        do {
            // A commit that failed can leave the transaction open (SQLite does not always roll back
            // on SQLITE_FULL or SQLITE_BUSY at COMMIT); close it before starting the next one.
            if db.isInsideTransaction { try db.rollback() }
            try db.inTransaction(.immediate) { try SQLiteBatch.apply(writes, in: db, now: now().millisecondsSinceEpoch) }
            return nil
        } catch {
            return error
        }
    }
}

extension SQLiteWrite {
    /// "Saving room A1B2C3": the start of an error's reason.
    var summary: String {
        switch self {
        case .saveGame(let game): "Saving \(game.noun) \(game.id)"
        case .deleteGame(_, let noun, let id, _): "Deleting \(noun) \(id)"
        }
    }
}
