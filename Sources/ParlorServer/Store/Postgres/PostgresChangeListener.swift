import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// Hears the other nodes' announcements (`GameChange`) on one pooled connection kept for it, for as
/// long as the server runs. When that connection drops, announcements made meanwhile are lost, so
/// after listening again it asks for every watched game to be read afresh (`resumed`).
struct PostgresChangeListener: Sendable {
    let pool: PostgresPool
    let node: String
    let metrics: NIOLockedValueBox<ClusterMetrics?>

    /// Listens until the calling task is cancelled. `changed` runs for each other node's announcement,
    /// in the order they arrive; `resumed` after the listening connection was lost and is back.
    func run(changed: @escaping @Sendable (GameChange) async -> Void, resumed: @escaping @Sendable () async -> Void) async {
        var attempt = 0
        while !Task.isCancelled {
            let resuming = attempt > 0
            do {
                try await pool.withConnection("Listening for other nodes' changes", callTimeout: nil) { [node, metrics] connection in
                    try await connection.listen(on: GameChange.channel) { notifications in
                        if resuming { await resumed() }
                        for try await notification in notifications {
                            guard let change = GameChange(payload: notification.payload), change.node != node else { continue }
                            metrics.withLockedValue { $0 }?.notificationsReceived.increment()
                            await changed(change)
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                pool.logger.warning(
                    "Not listening for other nodes' changes; trying again",
                    metadata: ["cause": "\(error.reason)", "attempt": "\(attempt + 1)"])
            }
            attempt += 1
            // Backs off up to 5 s while the database is away, as the pool does.
            try? await Task.sleep(for: .milliseconds(min(5000, 100 << min(attempt, 6))))
        }
    }
}
