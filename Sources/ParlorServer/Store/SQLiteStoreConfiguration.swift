import Foundation
import ParlorSQLite
import ParlorRules

/// How `SQLiteStore` opens and runs its database. Every field has a default that suits a single server
/// with its data directory on a local disk.
public struct SQLiteStoreConfiguration: Sendable {
    /// SQLite's `synchronous` setting for the writer connection (the database runs in WAL mode).
    public enum Synchronous: String, Sendable, CaseIterable {
        /// Every commit waits for `fsync` of the write-ahead log: an acknowledged write survives a
        /// process crash (`kill -9`) and a power loss or kernel panic, as far as the disk honours
        /// `fsync`.
        case full = "FULL"
        /// Commits do not wait for `fsync`; the log is synced at checkpoints. Survives a process crash,
        /// but the last commits before a power loss or kernel panic can be lost (never corrupted).
        case normal = "NORMAL"
    }

    /// Default `.full`: an action is acknowledged only once the store has it, and a power loss should
    /// not take back what a player was told had happened. Group commit keeps its cost down.
    public var synchronous: Synchronous = .full

    /// How long a write waits for a lock held by another connection before failing. Only another
    /// process opening the same file (a backup tool, a second server by mistake) can hold one.
    /// Default 5 seconds.
    public var busyTimeout: Duration = .seconds(5)

    /// Read connections. In WAL mode reads run beside the writer and never wait for a batch to commit.
    /// Default 4; at least 1.
    public var readerCount: Int = 4

    /// Writes waiting for the next batch. Past this, a write fails at once with `.unavailable` instead
    /// of queueing: a healthy disk drains thousands of writes in one commit, so a full queue means the
    /// disk has stopped keeping up, and waiting would only grow memory. At most this many writes are
    /// queued, plus at most as many in the batch being committed. Default 10,000; at least 1.
    public var maxPendingWrites: Int = 10_000

    /// Under load, how long the writer waits before it takes the next batch. A batch that follows one
    /// of several writes waits this long, so that more writes share its commit and its `fsync`: fewer,
    /// larger commits cost the server less CPU per write (in `parlor-load throughput`, about a quarter less
    /// on the writer thread at 2 ms). A write that finds the writer idle, or follows a batch of one,
    /// never waits, so a quiet server answers as fast as the disk allows. Default 2 ms; zero or
    /// less turns it off.
    public var commitDelay: Duration = .milliseconds(2)

    /// The most games one `finishedGames` call returns, whatever `limit` asks for. Default 200.
    public var maxHistoryPageSize: Int = 200

    /// Runs SQLite's `PRAGMA quick_check` at start-up, so a damaged file is reported before the server
    /// accepts players instead of at the first unlucky read. It reads the whole file once: about a
    /// second per few hundred MB. Default true.
    public var checksIntegrityAtStart: Bool = true

    /// The size the write-ahead log is truncated back to after a checkpoint (`journal_size_limit`),
    /// so one burst of writes does not leave a large `-wal` file behind for good. Default 64 MiB.
    public var walSizeLimitBytes: Int = 64 << 20

    /// The clock that stamps `updated_at` and `stored_at` columns (they are for operators; nothing
    /// reads them back). Default: the system clock.
    public var now: @Sendable () -> Instant = {
        Instant(millisecondsSinceEpoch: Int64((Date().timeIntervalSince1970 * 1000).rounded()))
    }

    /// Runs on the writer connection once it is open, after Parlor's own settings. For tests (e.g.
    /// `PRAGMA max_page_count` to simulate a full disk).
    var prepareWriter: (@Sendable (SQLiteConnection) throws -> Void)?

    public init() {}

    /// The counts as the store applies them: a zero or negative setting would deadlock or crash.
    var effectiveReaderCount: Int { max(1, readerCount) }
    var effectiveMaxPendingWrites: Int { max(1, maxPendingWrites) }
    var effectiveMaxHistoryPageSize: Int { max(1, maxHistoryPageSize) }

    /// The writer's pause under load, or nil when there is none (either store's writer).
    var effectiveCommitDelay: Duration? { commitDelay > .zero ? commitDelay : nil }
}
