import ParlorSQLite
import NIOConcurrencyHelpers

/// Stops a backup from another thread (the server stopping while an operator streams one): the copy of
/// the database under way is interrupted (SQLite's interrupt: `VACUUM INTO` ends at once, its snapshot
/// removed), and the backup's next step fails. `isWorking` says whether the backup's thread is still
/// busy, so whoever stopped it can wait for its files to be gone.
public final class BackupStop: Sendable {
    private struct State {
        var stopped = false
        var working = false
        /// Interrupts the live database's connection while `VACUUM INTO` copies it.
        var copying: SQLiteInterrupter?
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    public func stop() {
        // Under the lock: the copy's connection stays open until `copying` has let go of it.
        state.withLockedValue { state in
            state.stopped = true
            state.copying?.interrupt()
        }
    }

    /// Whether the backup's thread is between `start()` and `end()`.
    public var isWorking: Bool { state.withLockedValue { $0.working } }

    static let stopped = BackupError(.io, "The backup was stopped: the server is shutting down.")

    /// The backup's thread begins; fails when the backup was stopped before it could.
    func start() throws(BackupError) {
        let started = state.withLockedValue { state -> Bool in
            guard !state.stopped else { return false }
            state.working = true
            return true
        }
        guard started else { throw Self.stopped }
    }

    func end() {
        state.withLockedValue { $0.working = false }
    }

    /// Fails once the backup was stopped.
    func check() throws(BackupError) {
        if state.withLockedValue({ $0.stopped }) { throw Self.stopped }
    }

    /// Runs `body` (which copies `database`) so that `stop()` interrupts it; fails at once when the
    /// backup was stopped already.
    func copying(_ database: SQLiteConnection, _ body: () throws -> Void) throws {
        let copying = state.withLockedValue { state -> Bool in
            guard !state.stopped else { return false }
            state.copying = database.interrupter
            return true
        }
        guard copying else { throw Self.stopped }
        defer { state.withLockedValue { $0.copying = nil } }
        do {
            try body()
        } catch {
            // Interrupted: the stop's reason is the one to tell, not SQLite's.
            try check()
            throw error
        }
        try check()
    }
}
