// Built only with the PostgreSQL trait (`swift build --traits PostgreSQL`): see Package.swift.
#if PostgreSQL
import Logging
import NIOPosix
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
    /// The connections' own event loop: a database round trip never waits behind the WebSockets' loops
    /// (which, at 500 rooms of 8 on two cores, held the writer to eight commits a second behind a fan-out
    /// 200 ms late), and a burst of sends never waits behind a slow query's bytes.
    private let eventLoopGroup: MultiThreadedEventLoopGroup
    private let runner: Task<Void, Never>
    private let leaseTimeout: Duration
    private let watch = ClosingWatch()

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
        let eventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        self.eventLoopGroup = eventLoopGroup
        let client = PostgresClient(configuration: configuration, eventLoopGroup: eventLoopGroup, backgroundLogger: logger)
        self.client = client
        self.location = location
        self.logger = logger
        self.leaseTimeout = leaseTimeout
        runner = Task { await client.run() }
    }

    /// Lets running calls finish, then closes every connection and stops their event loop.
    func close() async {
        runner.cancel()
        await runner.value
        try? await eventLoopGroup.shutdownGracefully()
    }

    /// Runs `body` on a connection of its own; `doing` names the work in an error's reason.
    ///
    /// The wait for a connection is bounded by `leaseTimeout` whatever the pool does: the work runs in
    /// a task of its own, and the caller is answered by whichever comes first, the work's outcome or the
    /// timeout. (A task group would wait for its child even after giving up on it; after a database
    /// restart postgres-nio's pool was seen to keep a lease request waiting for good, and with it the
    /// caller — a game's save, and every later request of its players.)
    /// `callTimeout`: how long the work may take once it has its connection (nil: as long as it
    /// likes, for a connection kept to listen or to wait for the migration lock).
    func withConnection<T: Sendable>(
        _ doing: String, callTimeout: Duration? = .seconds(10), _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(StoreError) -> T {
        let leased = Leased()
        let answer = Answer<T>()
        let outcome: Result<T, any Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, any Error>, Never>) in
                answer.install(continuation)
                let work = Task { [client, watch] in
                    do {
                        let value = try await client.withConnection { connection in
                            // A connection that comes after the caller gave up — and was told that
                            // nothing was done — must not do it.
                            guard leased.claim() else { throw CancellationError() }
                            // postgres-nio (1.33) can lease a connection whose socket has just closed
                            // — its pool learns of a close a moment later — and a query written to a
                            // closed connection is never answered, not even with an error. After a
                            // restart of the database that left a save, and the writer with it (every
                            // later save of the node), waiting for good. So a call on a closed
                            // connection fails at once, and a call whose connection closes under it
                            // is answered when it closes.
                            guard !connection.isClosed else { throw ConnectionClosed() }
                            watch.begin(on: connection) { answer.give(.failure(ConnectionLost())) }
                            defer { watch.end(on: connection) }
                            guard let callTimeout else { return try await body(connection) }
                            // Whatever else holds a call on its connection: past `callTimeout` the
                            // caller is answered — the call may or may not have committed, as when a
                            // connection drops after COMMIT — and the connection is closed, which
                            // frees its place in the pool.
                            let watchdog = Task { [logger] in
                                try await Task.sleep(for: callTimeout)
                                guard answer.give(.failure(CallTimedOut(after: callTimeout))) else { return }
                                logger.warning(
                                    "A database call did not finish in time; answering its caller and closing its connection",
                                    metadata: ["doing": "\(doing)", "after": "\(callTimeout)"])
                                try? await connection.close()
                            }
                            defer { watchdog.cancel() }
                            return try await body(connection)
                        }
                        answer.give(.success(value))
                    } catch {
                        answer.give(.failure(error))
                    }
                }
                let timer = Task { [leaseTimeout] in
                    try? await Task.sleep(for: leaseTimeout)
                    guard leased.abandon() else { return }
                    answer.give(.failure(LeaseTimedOut()))
                    work.cancel()
                }
                answer.onAnswer { work.cancel(); timer.cancel() }
            }
        } onCancel: {
            answer.give(.failure(CancellationError()))
        }
        do {
            return try outcome.get()
        } catch is LeaseTimedOut {
            throw PostgresErrorMapping.unreachable(doing: doing, location: location, detail: "no connection within \(leaseTimeout)")
        } catch is ConnectionClosed {
            throw PostgresErrorMapping.unreachable(doing: doing, location: location, detail: "its connection had closed")
        } catch is ConnectionLost {
            throw Self.outcomeUnknown("\(doing) on \(location) lost its connection before it finished", advice: "Parlor reconnects on its own; check the database's health.")
        } catch let error as CallTimedOut {
            throw Self.outcomeUnknown("\(doing) on \(location) did not finish within \(error.after); its connection was closed", advice: "Check the database's health and load.")
        } catch {
            throw PostgresErrorMapping.storeError(error, doing: doing, location: location)
        }
    }

    /// A call that may or may not have committed (as when a connection drops after COMMIT).
    private static func outcomeUnknown(_ what: String, advice: String) -> StoreError {
        StoreError(
            .unreachable,
            "\(what). Whether it was applied is not known; a game's next save is checked against the version stored, so nothing is applied twice. \(advice)")
    }

    private struct LeaseTimedOut: Error {}
    private struct CallTimedOut: Error { var after: Duration }
    /// The connection leased had closed before the call began: nothing was sent.
    private struct ConnectionClosed: Error {}
    /// The connection closed while the call ran.
    private struct ConnectionLost: Error {}

    /// The caller's answer, given once: by the work, the timeout or the caller's cancellation.
    private final class Answer<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Result<T, any Error>, Never>?
            var early: Result<T, any Error>?
            var answered = false
            var cleanup: (@Sendable () -> Void)?
        }
        private let state = Mutex(State())

        func install(_ continuation: CheckedContinuation<Result<T, any Error>, Never>) {
            let early = state.withLock { state -> Result<T, any Error>? in
                if let early = state.early { return early }
                state.continuation = continuation
                return nil
            }
            if let early { continuation.resume(returning: early) }
        }

        /// What to stop once answered (the work if the timeout won, the timer if the work did).
        func onAnswer(_ cleanup: @escaping @Sendable () -> Void) {
            let now = state.withLock { state -> Bool in
                if state.answered { return true }
                state.cleanup = cleanup
                return false
            }
            if now { cleanup() }
        }

        /// True when this was the answer (the first given).
        @discardableResult
        func give(_ result: Result<T, any Error>) -> Bool {
            let (first, continuation, cleanup) = state.withLock { state -> (Bool, CheckedContinuation<Result<T, any Error>, Never>?, (@Sendable () -> Void)?) in
                guard !state.answered else { return (false, nil, nil) }
                state.answered = true
                if state.continuation == nil { state.early = result }
                defer { state.continuation = nil; state.cleanup = nil }
                return (true, state.continuation, state.cleanup)
            }
            continuation?.resume(returning: result)
            cleanup?()
            return first
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

    /// The call each connection is running, answered if its connection closes under it. One
    /// `closeFuture` callback per connection, not one per call: a callback cannot be taken back, and
    /// one per call would pile up for as long as a pooled connection lives.
    private final class ClosingWatch: Sendable {
        /// Each open connection that has run a call (its close callback registered), with the call it
        /// runs now, if any.
        private let watched = Mutex<[PostgresConnection.ID: (@Sendable () -> Void)?]>([:])

        /// `onClose` runs if `connection` closes before `end(on:)`.
        func begin(on connection: PostgresConnection, onClose: @escaping @Sendable () -> Void) {
            let id = connection.id
            let isNew = watched.withLock { watched in
                defer { watched[id] = .some(onClose) }
                return watched[id] == nil
            }
            guard isNew else { return }
            // Runs at once if it has closed already.
            connection.closeFuture.whenComplete { [self] _ in
                watched.withLock { $0.removeValue(forKey: id) }??()
            }
        }

        func end(on connection: PostgresConnection) {
            watched.withLock { watched in
                if watched[connection.id] != nil { watched[connection.id] = .some(nil) }
            }
        }

        var counts: (calls: Int, connections: Int) {
            watched.withLock { watched in (watched.values.count { $0 != nil }, watched.count) }
        }
    }

    /// Calls running now, and connections watched for closing (for tests: neither grows with calls).
    var watchedCounts: (calls: Int, connections: Int) { watch.counts }

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
#endif
