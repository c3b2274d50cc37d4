import CoreMetrics
import NIOConcurrencyHelpers
import NIOCore
import Prometheus

/// Parlor's metrics, recorded through swift-metrics into this server's own Prometheus registry (so
/// several servers in one process, as in tests, keep separate numbers) and served at `/metrics`.
final class ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory

    /// Open WebSocket sessions on `/ws`.
    let connections: Meter
    let subscriptions: CoreMetrics.Gauge
    /// From a version's publication to its frame being handed to a subscriber's connection.
    let broadcastLatency: CoreMetrics.Timer
    /// Users with at least one open connection (refreshed at scrape time): 0 once everyone has gone.
    let connectedUsers: CoreMetrics.Gauge
    /// Times the server gave freed memory back to the system, and how much resident memory that returned.
    let memoryTrims: CoreMetrics.Counter
    let memoryReturned: CoreMetrics.Counter

    private struct OperationKey: Hashable {
        let name: String
        let outcome: String
    }

    private let liveGameGauges = NIOLockedValueBox<[String: CoreMetrics.Gauge]>([:])
    private let operationCounters = NIOLockedValueBox<[OperationKey: CoreMetrics.Counter]>([:])
    private let operationTimers = NIOLockedValueBox<[String: CoreMetrics.Timer]>([:])

    init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        let latencyBuckets: [Duration] = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5),
        ]
        factory.defaultDurationHistogramBuckets = latencyBuckets
        self.factory = factory
        connections = Meter(label: "parlor_connections", factory: factory)
        subscriptions = CoreMetrics.Gauge(label: "parlor_subscriptions", factory: factory)
        broadcastLatency = CoreMetrics.Timer(label: "parlor_broadcast_latency_seconds", factory: factory)
        connectedUsers = CoreMetrics.Gauge(label: "parlor_connected_users", factory: factory)
        memoryTrims = CoreMetrics.Counter(label: "parlor_memory_trims_total", factory: factory)
        memoryReturned = CoreMetrics.Counter(label: "parlor_memory_returned_bytes_total", factory: factory)
    }

    /// Counts one operation by name and outcome (`ok` or the error code) and records how long it took.
    func recordOperation(_ name: String, outcome: String, duration: TimeAmount) {
        let key = OperationKey(name: name, outcome: outcome)
        let counter = operationCounters.withLockedValue { counters -> CoreMetrics.Counter in
            if let counter = counters[key] { return counter }
            let counter = CoreMetrics.Counter(
                label: "parlor_operations_total", dimensions: [("op", name), ("outcome", outcome)], factory: factory)
            counters[key] = counter
            return counter
        }
        counter.increment()
        let timer = operationTimers.withLockedValue { timers -> CoreMetrics.Timer in
            if let timer = timers[name] { return timer }
            let timer = CoreMetrics.Timer(
                label: "parlor_operation_duration_seconds", dimensions: [("op", name)], factory: factory)
            timers[name] = timer
            return timer
        }
        timer.recordNanoseconds(duration.nanoseconds)
    }

    /// Records how many games of one kind are live, as `parlor_<plural>` (`parlor_rooms`, `parlor_lobbies`).
    func recordLiveGames(_ count: Int, of kind: GameKind) {
        let label = "parlor_\(kind.plural)"
        let gauge = liveGameGauges.withLockedValue { gauges -> CoreMetrics.Gauge in
            if let gauge = gauges[label] { return gauge }
            let gauge = CoreMetrics.Gauge(label: label, factory: factory)
            gauges[label] = gauge
            return gauge
        }
        gauge.record(count)
    }

    /// The Prometheus text exposition.
    func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }
}
