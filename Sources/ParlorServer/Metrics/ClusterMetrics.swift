import Prometheus

/// The figures of a node in a cluster (`--postgres`): how many game versions it announced to the
/// other nodes and heard from them, how long an announced version took to reach this node's
/// subscribers, and how often this node had to take a game from the database because another node
/// had moved it on. A node on its own (SQLite) keeps them at zero.
final class ClusterMetrics: Sendable {
    let notificationsSent: Counter
    /// Announcements that could not be sent after their batch committed (the change is stored; the other
    /// nodes' subscribers see it with the game's next change, or when they subscribe again).
    let notificationsFailed: Counter
    let notificationsReceived: Counter
    /// From the other node's commit to the version published to this node's feed.
    let fanOutLatency: DurationHistogram
    /// A game reloaded from the database, by why: `notified` (another node changed a game this node has
    /// subscribers for), `conflict` (a save lost its race), `adopted` (a game this node did not hold),
    /// `refused` (the rules refused a change on this node's copy, which another node may have moved on).
    private let reloadCounters: [String: Counter]

    init(registry: PrometheusCollectorRegistry, buckets: [Duration]) {
        notificationsSent = registry.counter(
            "parlor_cluster_notifications_sent_total", help: "Game versions this node announced to the other nodes (one NOTIFY each, after their batch committed).")
        notificationsFailed = registry.counter(
            "parlor_cluster_notifications_failed_total", help: "Game versions committed but not announced because the NOTIFY after the commit failed.")
        notificationsReceived = registry.counter(
            "parlor_cluster_notifications_received_total", help: "Game versions other nodes announced that this node heard.")
        fanOutLatency = registry.durationHistogram(
            "parlor_cluster_fanout_latency_seconds", buckets: buckets,
            help: "From another node's commit of a game version to its publication to this node's subscribers (wall clocks of two machines: as exact as they agree).")
        var counters: [String: Counter] = [:]
        for reason in Reload.allCases.map(\.rawValue) {
            counters[reason] = registry.counter(
                "parlor_cluster_reloads_total", labels: [("reason", reason)],
                help: "Games this node read back from the database because another node had changed or created them.")
        }
        reloadCounters = counters
    }

    enum Reload: String, CaseIterable {
        case notified, conflict, adopted, refused
    }

    func reloaded(_ reason: Reload) {
        reloadCounters[reason.rawValue]?.increment()
    }
}
