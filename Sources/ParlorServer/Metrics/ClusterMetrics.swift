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
    /// Versions taken from another node's announcement itself, without reading the database.
    let adoptedFromAnnouncements: Counter
    /// Games this node took on because their node was gone, draining or none.
    let claims: Counter
    /// Copies of games other nodes serve dropped from memory, unused.
    let evictions: Counter
    /// Games held here and their subscriptions, by whether this node serves them: in a cluster whose
    /// clients follow their games' nodes, `served="elsewhere"` subscriptions are few and brief.
    let gamesServed: (here: Gauge, elsewhere: Gauge)
    let subscriptionsServed: (here: Gauge, elsewhere: Gauge)
    /// 1 while this node drains.
    let draining: Gauge

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
        adoptedFromAnnouncements = registry.counter(
            "parlor_cluster_versions_from_announcements_total",
            help: "Game versions another node committed that this node published from the announcement itself, without reading the database.")
        claims = registry.counter(
            "parlor_cluster_claims_total", help: "Games this node took on because the node serving them was gone or draining, or none was.")
        evictions = registry.counter(
            "parlor_cluster_copies_evicted_total", help: "Copies of games other nodes serve that this node dropped from memory after a while unused.")
        let gamesHelp = "Games held by this node: served here, or copies of games another node serves."
        gamesServed = (
            registry.gauge("parlor_cluster_games", labels: [("served", "here")], help: gamesHelp),
            registry.gauge("parlor_cluster_games", labels: [("served", "elsewhere")], help: gamesHelp)
        )
        let subscriptionsHelp = "Subscriptions on this node to games it serves, and to games another node serves (clients that did not move to it)."
        subscriptionsServed = (
            registry.gauge("parlor_cluster_subscriptions", labels: [("served", "here")], help: subscriptionsHelp),
            registry.gauge("parlor_cluster_subscriptions", labels: [("served", "elsewhere")], help: subscriptionsHelp)
        )
        draining = registry.gauge("parlor_cluster_draining", help: "1 while this node drains (after SIGTERM), else 0.")
    }

    func adoptedFromAnnouncement() { adoptedFromAnnouncements.increment() }
    func claimed() { claims.increment() }
    func evicted() { evictions.increment() }

    func record(_ counts: ServedCounts) {
        gamesServed.here.set(Double(counts.gamesHere))
        gamesServed.elsewhere.set(Double(counts.gamesElsewhere))
        subscriptionsServed.here.set(Double(counts.subscriptionsHere))
        subscriptionsServed.elsewhere.set(Double(counts.subscriptionsElsewhere))
    }

    enum Reload: String, CaseIterable {
        case notified, conflict, adopted, refused
    }

    func reloaded(_ reason: Reload) {
        reloadCounters[reason.rawValue]?.increment()
    }
}
