import Foundation

/// Everything an `idle` run measured, as written to `--json` and printed as a table.
struct IdleReport: LoadReport {
    struct Timing: Codable {
        var setupSeconds = 0.0
        var setupTimedOut = false
        var holdSeconds = 0.0
    }

    /// Resident memory of one process over the run, and what each held connection added to it.
    struct Memory: Codable {
        var pid: String?
        var residentBytesBefore: Int?
        /// One sample a second while holding.
        var samples: [Int] = []
        var residentBytesHolding: Int?
        var residentBytesPeak: Int?
        /// (holding − before) / connections held.
        var bytesPerConnection: Double?
        /// Share of one core used while holding (idle connections should cost next to nothing).
        var cpuCoresWhileHolding: Double?

        mutating func finish(held: Int) {
            residentBytesHolding = samples.last
            residentBytesPeak = samples.max()
            if let before = residentBytesBefore, let holding = residentBytesHolding, held > 0 {
                bytesPerConnection = Double(holding - before) / Double(held)
            }
        }
    }

    let scenario = "idle"
    var context: RunContext
    var parameters: IdleParameters
    var timing = Timing()
    var attempted: Int
    var established = 0
    var failed = 0
    /// Connections open at the end of the hold (what the memory is divided by).
    var held = 0
    /// Connections the server closed while they were held.
    var lostDuringHold = 0
    var eventsReceived = 0
    var connectLatency = LatencySummary(count: 0, clamped: 0)
    var failuresByReason: [String: Int] = [:]
    var server = Memory()
    var generator = Memory()
    /// The server's gauges (parlor_connections, parlor_subscriptions, parlor_rooms) before and while holding.
    var serverMetricsBefore: [String: Double] = [:]
    var serverMetricsHolding: [String: Double] = [:]
    var problems: [String] = []
    var passed: Bool { problems.isEmpty }

    private enum CodingKeys: String, CodingKey {
        case scenario, context, parameters, timing, attempted, established, failed, held, lostDuringHold, eventsReceived
        case connectLatency, failuresByReason, server, generator, serverMetricsBefore, serverMetricsHolding, problems, passed
    }

    init(context: RunContext, parameters: IdleParameters) {
        self.context = context
        self.parameters = parameters
        attempted = parameters.connections
        server.pid = parameters.serverPid.map(String.init)
        generator.pid = String(getpid())
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scenario, forKey: .scenario)
        try container.encode(context, forKey: .context)
        try container.encode(parameters, forKey: .parameters)
        try container.encode(timing, forKey: .timing)
        try container.encode(attempted, forKey: .attempted)
        try container.encode(established, forKey: .established)
        try container.encode(failed, forKey: .failed)
        try container.encode(held, forKey: .held)
        try container.encode(lostDuringHold, forKey: .lostDuringHold)
        try container.encode(eventsReceived, forKey: .eventsReceived)
        try container.encode(connectLatency, forKey: .connectLatency)
        try container.encode(failuresByReason, forKey: .failuresByReason)
        try container.encode(server, forKey: .server)
        try container.encode(generator, forKey: .generator)
        try container.encode(serverMetricsBefore, forKey: .serverMetricsBefore)
        try container.encode(serverMetricsHolding, forKey: .serverMetricsHolding)
        try container.encode(problems, forKey: .problems)
        try container.encode(passed, forKey: .passed)
    }

    mutating func finish(context: RunContext, run: IdleDriver.Run) {
        self.context = context
        established = run.established.current
        failed = run.failed.current
        lostDuringHold = run.lost.current
        eventsReceived = run.events.current
        connectLatency = run.connectLatency.summary
        failuresByReason = run.failures.snapshot
        server.finish(held: held)
        generator.finish(held: held)
        if timing.setupTimedOut { problems.append("set-up did not finish in \(parameters.setupTimeoutSeconds) s") }
        if failed > 0 || lostDuringHold > 0 {
            problems.append("\(failed) connections failed, \(lostDuringHold) lost while held (\(describeTally(failuresByReason)))")
        }
        if let serverConnections = serverMetricsHolding["parlor_connections"], Int(serverConnections) < held {
            problems.append("the server counts \(Int(serverConnections)) connections, the generator holds \(held)")
        }
    }

    var table: String {
        let p = parameters
        var lines: [String] = []
        lines.append(
            "parlor-load idle: \(p.connections) connections, \(p.perRoom) per room (\(p.roomCount) rooms), held \(p.durationSeconds) s "
                + "(\(context.startedAt))")
        lines.append(
            String(
                format: "set-up: %d in, %d failed, in %.1f s; held %d for %.1f s, %d lost while held",
                established, failed, timing.setupSeconds, held, timing.holdSeconds, lostDuringHold))
        var latencies = TextTable.latencyTable()
        latencies.add("connect + hello + observe", connectLatency)
        lines.append("")
        lines.append(latencies.text)
        lines.append("")
        var memory = TextTable(["process", "RSS before", "holding", "peak", "per connection", "CPU while holding"])
        for (name, usage) in [("server (pid \(server.pid ?? "-"))", server), ("generator", generator)] {
            memory.add([
                name, formatBytes(usage.residentBytesBefore), formatBytes(usage.residentBytesHolding),
                formatBytes(usage.residentBytesPeak), usage.bytesPerConnection.map { formatBytes(Int($0)) } ?? "-",
                usage.cpuCoresWhileHolding.map { String(format: "%.2f cores", $0) } ?? "-",
            ])
        }
        lines.append(memory.text)
        let gauges = serverMetricsHolding.sorted { $0.key < $1.key }.map { "\($0.key) \(Int($0.value))" }
        lines.append("server's /metrics while holding: " + (gauges.isEmpty ? "unavailable" : gauges.joined(separator: ", ")))
        lines.append("failures: \(describeTally(failuresByReason))")
        lines.append("load average: \(context.loadAverageAtStart) at start, \(context.loadAverageAtEnd) at end (\(context.cores) cores)")
        if context.interrupted { lines.append("stopped early by Ctrl-C") }
        lines.append(passed ? "PASSED" : "FAILED: " + problems.joined(separator: "; "))
        return lines.joined(separator: "\n")
    }
}
