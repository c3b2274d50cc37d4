import NIOConcurrencyHelpers
import NIOCore
import ParlorRules
import Prometheus
import WebSocketCore

/// Parlor's metrics, kept in this server's own Prometheus registry (so several servers in one process,
/// as in tests, keep separate numbers) and served at `/metrics`. Every metric is made here with its
/// `# HELP`, so the exposition explains itself to whoever scrapes it.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()

    /// Open WebSocket sessions on `/ws`.
    let connections: Gauge
    let subscriptions: Gauge
    /// From a version's publication to its frame written to the sockets of one event loop's subscribers.
    let broadcastLatency: DurationHistogram
    /// Users with at least one open connection (refreshed at scrape time): 0 once everyone has gone.
    let connectedUsers: Gauge
    /// Times the server gave freed memory back to the system, and how much resident memory that returned.
    let memoryTrims: Counter
    let memoryReturned: Counter
    /// Bytes on every listener's connections, HTTP and WebSocket apart.
    let traffic = TrafficCounter()
    /// Notifications and reloads between the nodes of a cluster.
    let cluster: ClusterMetrics
    private let process: ProcessMetrics

    private struct OperationKey: Hashable {
        let name: String
        let outcome: String
    }

    private struct StageKey: Hashable {
        let kind: String
        let stage: GameStage
    }

    private let liveGameGauges = NIOLockedValueBox<[String: Gauge]>([:])
    private let stageGauges = NIOLockedValueBox<[StageKey: Gauge]>([:])
    private let operationCounters = NIOLockedValueBox<[OperationKey: Counter]>([:])
    private let operationTimers = NIOLockedValueBox<[String: DurationHistogram]>([:])

    static let latencyBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5),
    ]

    init() {
        connections = registry.gauge("parlor_connections", help: "Open WebSocket sessions on /ws.")
        subscriptions = registry.gauge(
            "parlor_subscriptions", help: "Open subscriptions to games and to the feeds games register, across every connection.")
        broadcastLatency = registry.durationHistogram(
            "parlor_broadcast_latency_seconds", buckets: Self.latencyBuckets,
            help: "From a game version's publication to its frame written to the sockets of its subscribers on one event loop (one sample per version per loop). A new subscriber's first snapshot is not a broadcast and is not counted.")
        connectedUsers = registry.gauge("parlor_connected_users", help: "Users with at least one open connection.")
        memoryTrims = registry.counter(
            "parlor_memory_trims_total", help: "Times the server handed memory freed by closed connections back to the system.")
        memoryReturned = registry.counter(
            "parlor_memory_returned_bytes_total", help: "Resident memory the trims returned to the system, in bytes.")
        process = ProcessMetrics(registry: registry, traffic: traffic)
        cluster = ClusterMetrics(registry: registry, buckets: Self.latencyBuckets)
    }

    /// Counts one operation by name and outcome (`ok` or the error code) and records how long it took.
    func recordOperation(_ name: String, outcome: String, duration: TimeAmount) {
        let key = OperationKey(name: name, outcome: outcome)
        let counter = operationCounters.withLockedValue { counters -> Counter in
            if let counter = counters[key] { return counter }
            let counter = registry.counter(
                "parlor_operations_total", labels: [("op", name), ("outcome", outcome)],
                help: "Requests answered, by operation and outcome (ok, or the error code sent back).")
            counters[key] = counter
            return counter
        }
        counter.increment()
        let timer = operationTimers.withLockedValue { timers -> DurationHistogram in
            if let timer = timers[name] { return timer }
            let timer = registry.durationHistogram(
                "parlor_operation_duration_seconds", labels: [("op", name)], buckets: Self.latencyBuckets,
                help: "Time from a request's arrival to its answer, by operation.")
            timers[name] = timer
            return timer
        }
        timer.recordNanoseconds(duration.nanoseconds)
    }

    /// Records how many games of one kind are live, as `parlor_<plural>` (`parlor_rooms`, `parlor_lobbies`),
    /// and how many of them are at each stage, as `parlor_games{kind=…,phase=…}`.
    func recordLiveGames(_ count: Int, byStage: [GameStage: Int], of kind: GameKind) {
        let label = "parlor_\(kind.plural)"
        let gauge = liveGameGauges.withLockedValue { gauges -> Gauge in
            if let gauge = gauges[label] { return gauge }
            let gauge = registry.gauge(label, help: "Live \(kind.plural), whatever their stage.")
            gauges[label] = gauge
            return gauge
        }
        gauge.set(Double(count))
        for (stage, count) in byStage {
            let key = StageKey(kind: kind.name, stage: stage)
            let gauge = stageGauges.withLockedValue { gauges -> Gauge in
                if let gauge = gauges[key] { return gauge }
                let gauge = registry.gauge(
                    "parlor_games", labels: [("kind", kind.name), ("phase", stage.rawValue)],
                    help: "Live games by kind and phase: waiting for players, playing, or finished and not yet gone.")
                gauges[key] = gauge
                return gauge
            }
            gauge.set(Double(count))
        }
    }

    /// The Prometheus text exposition, with the process's figures read now.
    func exposition() -> [UInt8] {
        process.refresh()
        return registry.emitToBuffer()
    }
}
