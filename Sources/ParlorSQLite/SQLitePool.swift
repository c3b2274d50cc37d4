import Dispatch
import Synchronization

/// How `SQLitePool` opens its connections.
public struct SQLitePoolConfiguration: Sendable {
    /// Names the pool's dispatch queues (`LABEL.writer`, `LABEL.reader`), as a debugger or `perf` shows them.
    public var label: String = "sqlite"
    /// Read-only connections, opened as reads need them. At least 1.
    public var readerCount: Int = 4
    /// How long a statement waits for a lock another connection (another process) holds.
    public var busyTimeout: Duration = .seconds(5)

    public init() {}
}

/// A database in WAL mode: one writer connection on a serial queue of its own, and up to
/// `readerCount` read-only connections, each on its own serial queue, that read beside the writer and
/// never wait for it. Every connection's work runs on a dispatch thread, never on the caller's: the
/// cooperative pool's few threads must not wait for a disk.
public final class SQLitePool: Sendable {
    public let path: String
    private let configuration: SQLitePoolConfiguration
    private let writerQueue: DispatchQueue
    private let writer: Confined
    private let readers = Mutex(Readers())

    /// Opens (creating when missing) the database at `path` and puts it in WAL mode, foreign keys on.
    public init(path: String, configuration: SQLitePoolConfiguration = .init()) throws {
        self.path = path
        self.configuration = configuration
        writerQueue = DispatchQueue(label: configuration.label + ".writer")
        let connection = try SQLiteConnection(path: path, readOnly: false, busyTimeout: configuration.busyTimeout)
        // The first statement reads the file's header: a file that is not a database fails here.
        let mode = try String.fetchOne(connection, sql: "PRAGMA journal_mode = WAL")
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError(
                extendedCode: SQLiteError.ResultCode.error.rawValue,
                message: "the database cannot use a write-ahead log (its journal mode stays \(mode ?? "unknown"))")
        }
        try connection.execute(sql: "PRAGMA foreign_keys = ON")
        writer = Confined(connection)
    }

    // MARK: Writing

    /// Runs `body` on the writer connection, outside any transaction, and waits for it: for start-up
    /// (settings, checks, migrations) and tools. Never call it from the writer's own queue.
    public func writeWithoutTransaction<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        dispatchPrecondition(condition: .notOnQueue(writerQueue))
        return try writerQueue.sync { try body(writer.connection) }
    }

    /// Runs `body` in an immediate transaction on the writer connection: committed when it returns,
    /// rolled back when it throws.
    public func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            writerQueue.async { [writer] in
                let connection = writer.connection
                continuation.resume(with: Result { try connection.inTransaction(.immediate) { try body(connection) } })
            }
        }
    }

    /// Queues `body` on the writer's queue and returns at once; `body` manages its own transactions.
    public func asyncWriteWithoutTransaction(_ body: @escaping @Sendable (SQLiteConnection) -> Void) {
        writerQueue.async { [writer] in body(writer.connection) }
    }

    // MARK: Reading

    /// Runs `body` on a read connection, in a deferred transaction so that every statement in it sees
    /// the same committed state. Waits (without holding a thread) while every reader is busy.
    public func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            withReader { reader in
                guard let reader else { return continuation.resume(throwing: SQLiteError.closed()) }
                reader.queue.async {
                    let outcome = Result<T, any Error> {
                        let connection = try reader.connection(path: self.path, configuration: self.configuration)
                        return try connection.inTransaction(.deferred) { try body(connection) }
                    }
                    self.release(reader)
                    continuation.resume(with: outcome)
                }
            }
        }
    }

    /// Hands `job` an idle reader, a new one while fewer than `readerCount` are open, or the next one
    /// released; nil when the pool is closed.
    private func withReader(_ job: @escaping @Sendable (Reader?) -> Void) {
        let reader = readers.withLock { state -> Reader?? in
            if state.isClosed { return .some(nil) }
            if let reader = state.idle.popLast() { return reader }
            if state.opened < max(1, configuration.readerCount) {
                state.opened += 1
                return Reader(queue: DispatchQueue(label: configuration.label + ".reader"))
            }
            state.waiting.append(job)
            return nil
        }
        if let reader { job(reader) }
    }

    /// On the reader's queue, once its job is done.
    private func release(_ reader: Reader) {
        let (next, closing) = readers.withLock { state -> ((@Sendable (Reader?) -> Void)?, DispatchSemaphore?) in
            if state.isClosed { return (nil, state.closing) }
            if !state.waiting.isEmpty { return (state.waiting.removeFirst(), nil) }
            state.idle.append(reader)
            return (nil, nil)
        }
        if let closing {
            reader.close()
            closing.signal()
        } else {
            next?(reader)
        }
    }

    // MARK: Closing

    /// Reads waiting for a reader to be free.
    public var waitingReads: Int { readers.withLock { $0.waiting.count } }

    /// True from the moment `close()` begins.
    public var isClosed: Bool { readers.withLock { $0.isClosed } }

    /// Fails every read still waiting for a reader, waits for the running ones, then closes every
    /// connection. Reads and writes after this fail with `SQLITE_MISUSE`. Blocks: call it off the
    /// cooperative pool. Calling it again does nothing.
    public func close() {
        let closing = DispatchSemaphore(value: 0)
        let (idle, waiting, busy) = readers.withLock { state -> ([Reader], [@Sendable (Reader?) -> Void], Int) in
            // A second call finds nothing left to wait for (and must not take the first one's signals).
            guard !state.isClosed else { return ([], [], 0) }
            defer {
                state.isClosed = true
                state.idle = []
                state.waiting = []
                state.closing = closing
            }
            return (state.idle, state.waiting, state.opened - state.idle.count)
        }
        for job in waiting { job(nil) }
        for reader in idle { reader.queue.sync { reader.close() } }
        for _ in 0..<busy { closing.wait() }
        writerQueue.sync { writer.connection.close() }
    }

    private struct Readers {
        var idle: [Reader] = []
        /// Readers created, idle or busy.
        var opened = 0
        var waiting: [@Sendable (Reader?) -> Void] = []
        var isClosed = false
        /// Signalled by each busy reader as it closes, once the pool is closing.
        var closing: DispatchSemaphore?
    }

    /// A read connection and the queue it is used on; handed from job to job under `readers`' lock,
    /// so one job at a time touches it.
    private final class Reader: @unchecked Sendable {
        let queue: DispatchQueue
        private var opened: SQLiteConnection?

        init(queue: DispatchQueue) { self.queue = queue }

        /// On `queue`: the connection, opened at its first use (after the writer has made the file a
        /// WAL database, which a read-only connection cannot do).
        func connection(path: String, configuration: SQLitePoolConfiguration) throws -> SQLiteConnection {
            if let opened { return opened }
            let connection = try SQLiteConnection(path: path, readOnly: true, busyTimeout: configuration.busyTimeout)
            opened = connection
            return connection
        }

        /// On `queue`.
        func close() {
            opened?.close()
            opened = nil
        }
    }

    /// The writer connection, used only on `writerQueue`.
    private final class Confined: @unchecked Sendable {
        let connection: SQLiteConnection
        init(_ connection: SQLiteConnection) { self.connection = connection }
    }
}
