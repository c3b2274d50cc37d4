// Built only with the PostgreSQL trait (`swift build --traits PostgreSQL`): see Package.swift.
#if PostgreSQL
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// Hears the cluster's announcements on one pooled connection kept for it, for as long as the server
/// runs: the channel every node hears and this node's own always, and the watch buckets the kernel
/// asks for (`watch(_:)`) while it has watchers of games another node serves.
final class PostgresChangeListener: Sendable {
    let pool: PostgresPool
    let node: String
    let metrics: NIOLockedValueBox<ClusterMetrics?>

    private struct State {
        /// The buckets the kernel wants heard.
        var wanted: Set<Int> = []
        /// The buckets being listened to on the current connection.
        var listening: Set<Int> = []
        /// Whoever waits for a bucket to be listened to.
        var waiters: [Int: [CheckedContinuation<Void, Never>]] = [:]
        /// Tells the current connection's manager that `wanted` changed; nil while not connected.
        var wake: AsyncStream<Void>.Continuation?
    }

    private let state = NIOLockedValueBox(State())

    init(pool: PostgresPool, node: String, metrics: NIOLockedValueBox<ClusterMetrics?>) {
        self.pool = pool
        self.node = node
        self.metrics = metrics
    }

    /// The watch buckets listened to now (for tests and `/metrics`).
    var listeningBuckets: Set<Int> { state.withLockedValue { $0.listening } }

    /// Hears exactly `buckets` from now on. Returns once each of them is listened to — so a watcher
    /// subscribed after this cannot miss a version committed after its game was read — or at once
    /// while the connection is down (listening again reads every watched game afresh).
    func watch(_ buckets: Set<Int>) async {
        let (missing, wake) = state.withLockedValue { state -> (Set<Int>, AsyncStream<Void>.Continuation?) in
            state.wanted = buckets
            guard state.wake != nil else { return ([], nil) }
            return (buckets.subtracting(state.listening), state.wake)
        }
        wake?.yield()
        for bucket in missing {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLockedValue { state -> Bool in
                    if state.listening.contains(bucket) || state.wake == nil || !state.wanted.contains(bucket) { return true }
                    state.waiters[bucket, default: []].append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    /// Listens until the calling task is cancelled.
    func run(_ events: ClusterEvents) async {
        var attempt = 0
        while !Task.isCancelled {
            let resuming = attempt > 0
            do {
                try await pool.withConnection("Listening for other nodes' changes", callTimeout: nil) { connection in
                    try await self.listen(on: connection, events: events, resuming: resuming)
                }
            } catch {
                if Task.isCancelled { break }
                pool.logger.warning(
                    "Not listening for other nodes' changes; trying again",
                    metadata: ["cause": "\(error.reason)", "attempt": "\(attempt + 1)"])
            }
            disconnected()
            attempt += 1
            // Backs off up to 5 s while the database is away, as the pool does.
            try? await Task.sleep(for: .milliseconds(min(5000, 100 << min(attempt, 6))))
        }
        disconnected()
    }

    /// One connection's listening: the fixed channels, then the buckets as `wanted` changes, until any
    /// of them fails (the connection closed) or the task is cancelled.
    private func listen(on connection: PostgresConnection, events: ClusterEvents, resuming: Bool) async throws {
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let (failures, failure) = AsyncStream.makeStream(of: (any Error).self, bufferingPolicy: .bufferingNewest(1))
        defer {
            wake.finish()
            failure.finish()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            let fixed = [ClusterChannel.homes, ClusterChannel.node(node)]
            let (ready, readied) = AsyncStream.makeStream(of: Void.self)
            for channel in fixed {
                group.addTask {
                    defer { readied.finish() }
                    try await connection.listen(on: channel) { notifications in
                        readied.yield()
                        for try await notification in notifications { await self.heard(notification.payload, on: channel, events: events) }
                    }
                    throw ListenEnded(channel: channel)
                }
            }
            var confirmed = 0
            for await _ in ready {
                confirmed += 1
                if confirmed == fixed.count { break }
            }
            if confirmed == fixed.count {
                state.withLockedValue { $0.wake = wake }
                wake.yield()
                if resuming { Task { await events.resumed() } }
                group.addTask { await self.manageBuckets(on: connection, wakes: wakes, failure: failure, events: events) }
                group.addTask {
                    for await error in failures { throw error }
                }
            }
            // Whatever ends first — a listening that failed, or cancellation — ends this connection's.
            try await group.next()
            group.cancelAll()
            try Task.checkCancellation()
            throw ListenEnded(channel: "")
        }
    }

    /// Listens to each wanted bucket in a task of its own, cancelled (which sends UNLISTEN) when the
    /// bucket is no longer wanted; returns when `wakes` ends.
    private func manageBuckets(
        on connection: PostgresConnection, wakes: AsyncStream<Void>, failure: AsyncStream<any Error>.Continuation, events: ClusterEvents
    ) async {
        var buckets: [Int: Task<Void, Never>] = [:]
        defer { for task in buckets.values { task.cancel() } }
        for await _ in wakes {
            let wanted = state.withLockedValue { $0.wanted }
            for (bucket, task) in buckets where !wanted.contains(bucket) {
                task.cancel()
                buckets.removeValue(forKey: bucket)
                state.withLockedValue { _ = $0.listening.remove(bucket) }
            }
            for bucket in wanted where buckets[bucket] == nil {
                let channel = ClusterChannel.watch(bucket)
                buckets[bucket] = Task {
                    do {
                        try await connection.listen(on: channel) { notifications in
                            self.listening(bucket)
                            for try await notification in notifications { await self.heard(notification.payload, on: channel, events: events) }
                        }
                    } catch where !Task.isCancelled {
                        failure.yield(error)
                    } catch {}
                }
            }
        }
    }

    private struct ListenEnded: Error { var channel: String }

    /// A bucket is being listened to: whoever waits for it may go on.
    private func listening(_ bucket: Int) {
        let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.listening.insert(bucket)
            return state.waiters.removeValue(forKey: bucket) ?? []
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The connection is gone: nothing is listened to, and nobody waits for it.
    private func disconnected() {
        let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.wake?.finish()
            state.wake = nil
            state.listening = []
            defer { state.waiters = [:] }
            return state.waiters.values.flatMap { $0 }
        }
        for waiter in waiters { waiter.resume() }
    }

    private func heard(_ payload: String, on channel: String, events: ClusterEvents) async {
        if channel == ClusterChannel.homes, let change = HomeChange(payload: payload) {
            guard change.node != node else { return }
            await events.home(change)
            return
        }
        guard let change = GameChange(payload: payload), change.node != node else { return }
        metrics.withLockedValue { $0 }?.notificationsReceived.increment()
        await events.changed(change)
    }
}
#endif
