import Foundation
import NIOConcurrencyHelpers
import Prometheus
import WebSocketCore

/// The server process as the system sees it — resident memory, CPU time, open descriptors — and the
/// bytes its connections moved, read at scrape time under the names Prometheus's own clients use
/// (`process_resident_memory_bytes`, …) so dashboards made for them work unchanged.
final class ProcessMetrics: Sendable {
    private let residentMemory: Gauge
    private let cpuSeconds: Counter
    private let openDescriptors: Gauge
    private let maxDescriptors: Gauge
    private let startTime: Gauge
    private let received: (http: Counter, webSocket: Counter)
    private let sent: (http: Counter, webSocket: Counter)
    private let traffic: TrafficCounter
    /// What the counters already hold: each scrape adds what grew since (counters only go up).
    private let counted = NIOLockedValueBox(Counted())

    private struct Counted {
        var cpuSeconds = 0.0
        var traffic = TrafficTotals()
    }

    init(registry: PrometheusCollectorRegistry, traffic: TrafficCounter) {
        self.traffic = traffic
        residentMemory = registry.gauge("process_resident_memory_bytes", help: "Resident memory of the server process, in bytes.")
        cpuSeconds = registry.counter("process_cpu_seconds_total", help: "CPU time the server process has used, user and system, in seconds.")
        openDescriptors = registry.gauge("process_open_fds", help: "File descriptors the server process holds open (connections among them).")
        maxDescriptors = registry.gauge("process_max_fds", help: "The server process's open-file limit.")
        startTime = registry.gauge("process_start_time_seconds", help: "When the server started, in seconds since the Unix epoch.")
        startTime.set(Date().timeIntervalSince1970)
        let receivedHelp = "Bytes received on the server's connections (under TLS when there is TLS), by transport: http, or websocket after the upgrade."
        let sentHelp = "Bytes the server's connections handed to their sockets, by transport: http, or websocket after the upgrade."
        received = (
            registry.counter("parlor_received_bytes_total", labels: [("transport", "http")], help: receivedHelp),
            registry.counter("parlor_received_bytes_total", labels: [("transport", "websocket")], help: receivedHelp)
        )
        sent = (
            registry.counter("parlor_sent_bytes_total", labels: [("transport", "http")], help: sentHelp),
            registry.counter("parlor_sent_bytes_total", labels: [("transport", "websocket")], help: sentHelp)
        )
    }

    /// Reads the process's figures and the traffic into the metrics.
    func refresh() {
        if let resident = MemoryReclaimer.residentBytes() { residentMemory.set(Double(resident)) }
        if let open = Self.openDescriptorCount() { openDescriptors.set(Double(open)) }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 { maxDescriptors.set(Double(limit.rlim_cur)) }
        // Under the lock, so two scrapes at once never count the same growth twice or go backwards.
        counted.withLockedValue { counted in
            let cpu = Self.cpuSeconds()
            if cpu > counted.cpuSeconds {
                cpuSeconds.increment(by: cpu - counted.cpuSeconds)
                counted.cpuSeconds = cpu
            }
            let now = traffic.totals
            let before = counted.traffic
            received.http.increment(by: Int64(max(0, now.httpReceived - before.httpReceived)))
            received.webSocket.increment(by: Int64(max(0, now.webSocketReceived - before.webSocketReceived)))
            sent.http.increment(by: Int64(max(0, now.httpSent - before.httpSent)))
            sent.webSocket.increment(by: Int64(max(0, now.webSocketSent - before.webSocketSent)))
            counted.traffic = now
        }
    }

    /// User plus system CPU time of the whole process.
    private static func cpuSeconds() -> Double {
        var usage = rusage()
        guard getrusage(Int32(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Entries of `/proc/self/fd` (less the one reading it); nil off Linux.
    private static func openDescriptorCount() -> Int? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
        return max(0, entries.count - 1)
    }
}
