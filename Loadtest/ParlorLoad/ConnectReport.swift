import Foundation

/// Everything a `connect` run measured, as written to `--json` and printed as a table.
struct ConnectReport: LoadReport {
    struct Timing: Codable {
        /// From the first connect to the last connection of the first wave in (or failed).
        var firstWaveSeconds = 0.0
        var firstWaveTimedOut = false
        /// From the drop to every connection closed on the generator's side.
        var dropSeconds = 0.0
        /// From the storm's start to the last reconnection in (or failed).
        var stormSeconds = 0.0
        var stormTimedOut = false
        var totalSeconds = 0.0
    }

    struct WaveReport: Codable {
        var attempted: Int
        var connected: Int
        var failed: Int
        /// Connections in per second over the wave.
        var connectsPerSecond: Double
        var seconds: Double
        /// Connect + upgrade + hello reply.
        var latency: LatencySummary
        var failuresByReason: [String: Int]

        init(_ wave: Wave, attempted: Int, seconds: Double) {
            self.attempted = attempted
            connected = wave.connected.current
            failed = wave.failed.current
            self.seconds = seconds
            connectsPerSecond = seconds > 0 ? Double(connected) / seconds : 0
            latency = wave.latency.summary
            failuresByReason = wave.failures.snapshot
        }
    }

    let scenario = "connect"
    var context: RunContext
    var parameters: ConnectParameters
    var timing: Timing
    var firstWave: WaveReport
    var dropMode: String
    var storm: WaveReport
    /// Reconnections the server recognised by their token (`resumed: true`).
    var resumed: Int
    var notResumed: Int
    /// Seconds from the storm's start until every connection was back; nil when some never came back.
    var timeToAllReconnectedSeconds: Double?
    var server: ProcessUsage?
    var problems: [String]
    var passed: Bool { problems.isEmpty }

    private enum CodingKeys: String, CodingKey {
        case scenario, context, parameters, timing, firstWave, dropMode, storm, resumed, notResumed
        case timeToAllReconnectedSeconds, server, problems, passed
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scenario, forKey: .scenario)
        try container.encode(context, forKey: .context)
        try container.encode(parameters, forKey: .parameters)
        try container.encode(timing, forKey: .timing)
        try container.encode(firstWave, forKey: .firstWave)
        try container.encode(dropMode, forKey: .dropMode)
        try container.encode(storm, forKey: .storm)
        try container.encode(resumed, forKey: .resumed)
        try container.encode(notResumed, forKey: .notResumed)
        try container.encode(timeToAllReconnectedSeconds, forKey: .timeToAllReconnectedSeconds)
        try container.encodeIfPresent(server, forKey: .server)
        try container.encode(problems, forKey: .problems)
        try container.encode(passed, forKey: .passed)
    }

    init(context: RunContext, parameters: ConnectParameters, run: ConnectDriver.Run, timing: Timing, server: ProcessUsage?) {
        self.context = context
        self.parameters = parameters
        self.timing = timing
        self.server = server
        firstWave = WaveReport(run.first, attempted: parameters.connections, seconds: timing.firstWaveSeconds)
        dropMode = parameters.polite ? "polite (close handshake)" : "abrupt (close frame, TCP dropped at once)"
        storm = WaveReport(run.storm, attempted: firstWave.connected, seconds: timing.stormSeconds)
        resumed = run.resumed.current
        notResumed = run.notResumed.current
        let allBack = !timing.stormTimedOut && storm.failed == 0 && storm.connected == parameters.connections
        timeToAllReconnectedSeconds = allBack ? timing.stormSeconds : nil

        var problems: [String] = []
        if timing.firstWaveTimedOut { problems.append("the first wave did not finish in \(parameters.waveTimeoutSeconds) s") }
        if timing.stormTimedOut { problems.append("the storm did not finish in \(parameters.waveTimeoutSeconds) s") }
        let firstFailures = firstWave.failuresByReason.values.reduce(0, +)
        if firstFailures > 0 { problems.append("first wave: \(firstFailures) failures (\(describeTally(firstWave.failuresByReason)))") }
        if storm.failed > 0 { problems.append("storm: \(storm.failed) failures (\(describeTally(storm.failuresByReason)))") }
        if notResumed > 0 { problems.append("\(notResumed) reconnections were not resumed") }
        self.problems = problems
    }

    var table: String {
        let p = parameters
        var lines: [String] = []
        lines.append(
            "parlor-load connect: \(p.connections) connections (\(p.concurrency) at a time), \(dropMode) drop, "
                + "storm \(p.stormConcurrency) at a time (\(context.startedAt))")
        var table = TextTable(["wave", "connected", "failed", "seconds", "connects/s"])
        for (name, wave) in [("first", firstWave), ("storm", storm)] {
            table.add([
                name, String(wave.connected), String(wave.failed), String(format: "%.2f", wave.seconds),
                formatRate(wave.connectsPerSecond),
            ])
        }
        lines.append(table.text)
        lines.append("")
        var latencies = TextTable.latencyTable()
        latencies.add("first: connect + hello", firstWave.latency)
        latencies.add("storm: connect + hello {token}", storm.latency)
        lines.append(latencies.text)
        lines.append("")
        lines.append(String(format: "drop: every connection closed in %.2f s", timing.dropSeconds))
        lines.append(
            "storm: \(resumed) resumed, \(notResumed) not resumed; all back in "
                + (timeToAllReconnectedSeconds.map { String(format: "%.2f s", $0) } ?? "- (not all came back)"))
        lines.append("first wave failures: \(describeTally(firstWave.failuresByReason))")
        lines.append("storm failures: \(describeTally(storm.failuresByReason))")
        if let server {
            lines.append(
                "server (pid \(server.pid)): RSS \(formatBytes(server.residentBytesAtStart)) at start, "
                    + "\(formatBytes(server.residentBytesLoaded)) with the first wave in, \(formatBytes(server.residentBytesAtEnd)) at end; "
                    + "CPU \(server.cpuCores.map { String(format: "%.2f", $0) } ?? "-") cores over the run")
        }
        lines.append("load average: \(context.loadAverageAtStart) at start, \(context.loadAverageAtEnd) at end (\(context.cores) cores)")
        if context.interrupted { lines.append("stopped early by Ctrl-C") }
        lines.append(passed ? "PASSED" : "FAILED: " + problems.joined(separator: "; "))
        return lines.joined(separator: "\n")
    }
}
