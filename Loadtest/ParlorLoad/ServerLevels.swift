import Foundation
import Synchronization

/// One look at the server: what its process holds (`/proc/PID`) and what it says it holds (`/metrics`).
struct LevelSample: Codable, Sendable {
    /// Seconds since the run began.
    var second: Double
    var residentBytes: Int?
    var openFiles: Int?
    var threads: Int?
    /// The server's gauges (`parlor_connections`, `parlor_subscriptions`, `parlor_rooms`, …).
    var gauges: [String: Double]
    /// Connections the generator held at that moment.
    var generatorConnections: Int
}

/// The typical level of each figure over a stretch of a run: the median of its samples, so one sample
/// taken in the middle of a burst of churn does not move it.
struct Level: Codable, Sendable, Equatable {
    var fromSecond: Double
    var toSecond: Double
    var samples: Int
    var residentBytes: Int?
    var openFiles: Int?
    var threads: Int?
    var gauges: [String: Double]

    init?(_ samples: [LevelSample], from: Double, to: Double) {
        let window = samples.filter { $0.second >= from && $0.second <= to }
        guard !window.isEmpty else { return nil }
        fromSecond = from
        toSecond = to
        self.samples = window.count
        residentBytes = Self.median(window.compactMap(\.residentBytes))
        openFiles = Self.median(window.compactMap(\.openFiles))
        threads = Self.median(window.compactMap(\.threads))
        let names = Set(window.flatMap(\.gauges.keys))
        var gauges: [String: Double] = [:]
        for name in names {
            if let value = Self.median(window.compactMap { $0.gauges[name] }) { gauges[name] = value }
        }
        self.gauges = gauges
    }

    static func median<Value: Comparable>(_ values: [Value]) -> Value? {
        guard !values.isEmpty else { return nil }
        return values.sorted()[values.count / 2]
    }
}

/// A figure compared between the level it settled at and the level at the end.
struct LevelComparison: Codable, Sendable, Equatable {
    var name: String
    var settled: Double
    var end: Double
    /// (end − settled) / settled, in percent.
    var changePercent: Double
    var withinTolerance: Bool

    init(name: String, settled: Double, end: Double, tolerancePercent: Double) {
        self.name = name
        self.settled = settled
        self.end = end
        changePercent = settled == 0 ? (end == 0 ? 0 : .infinity) : (end - settled) / settled * 100
        withinTolerance = abs(changePercent) <= tolerancePercent
    }

    /// The figures a soak holds to its tolerance: resident memory, open descriptors and threads.
    static func compare(settled: Level, end: Level, tolerancePercent: Double) -> [LevelComparison] {
        let pairs: [(String, Int?, Int?)] = [
            ("resident memory (bytes)", settled.residentBytes, end.residentBytes),
            ("open descriptors", settled.openFiles, end.openFiles),
            ("threads", settled.threads, end.threads),
        ]
        return pairs.compactMap { name, settled, end in
            guard let settled, let end else { return nil }
            return LevelComparison(name: name, settled: Double(settled), end: Double(end), tolerancePercent: tolerancePercent)
        }
    }
}

/// Samples the server every few seconds through a run: its resident memory, open descriptors and
/// threads from `/proc/PID` (with `--server-pid`), and its gauges from `/metrics`.
final class ServerLevels: Sendable {
    static let gaugeNames: Set<String> = [
        "parlor_connections", "parlor_subscriptions", "parlor_rooms", "parlor_lobbies", "parlor_connected_users",
        "parlor_memory_trims_total",
    ]

    private let server: ProcessStats?
    private let metrics: (host: String, port: Int)?
    private let began: ContinuousClock.Instant
    private let recorded = Mutex<[LevelSample]>([])

    init(serverPid: Int32?, url: String, began: ContinuousClock.Instant) {
        server = serverPid.map { ProcessStats(pid: $0) }
        metrics = MetricsScrape.endpoint(forWebSocketURL: url)
        self.began = began
    }

    /// Takes one sample now and keeps it.
    @discardableResult
    func sample(generatorConnections: Int) async -> LevelSample {
        var gauges: [String: Double] = [:]
        if let metrics { gauges = await MetricsScrape.gauges(Self.gaugeNames, host: metrics.host, port: metrics.port) }
        let sample = LevelSample(
            second: (ContinuousClock.now - began).seconds, residentBytes: server?.residentBytes, openFiles: server?.openFiles,
            threads: server?.threads, gauges: gauges, generatorConnections: generatorConnections)
        recorded.withLock { $0.append(sample) }
        return sample
    }

    /// Samples every `interval` until `done` opens.
    func run(every interval: Duration, until done: Gate<Bool>, generatorConnections: @Sendable () -> Int) async {
        var next = ContinuousClock.now
        while !done.isOpen {
            await sample(generatorConnections: generatorConnections())
            next += interval
            let wait = next - .now
            if wait > .zero, await done.wait(timeout: wait) != nil { return }
        }
    }

    var samples: [LevelSample] { recorded.withLock { $0 } }
}
