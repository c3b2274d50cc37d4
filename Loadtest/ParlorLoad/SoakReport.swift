import Foundation

/// Everything a `soak` measured, as written to `--json` and printed as a table.
struct SoakReport: LoadReport {
    struct Timing: Codable {
        /// From the start until no new room life began (the duration, or less after Ctrl-C).
        var measuredSeconds = 0.0
        /// Rooms finishing their current round and being left, after that.
        var windDownSeconds = 0.0
        var totalSeconds = 0.0
        /// Share of one core each process used until the duration was over (2.0: both cores of two).
        var serverCPUCores: Double?
        var generatorCPUCores: Double?
    }

    struct Counts: Codable {
        var livesStarted: Int
        var livesFailed: Int
        /// Room lives that ended, by fate (`finished`, `left`, `disconnected`).
        var fates: [String: Int]
        var connectionsOpened: Int
        var requests: Int
        var replies: Int
        var events: Int
        var drops: Int
        var resumes: Int
        var notResumed: Int
        var unsubscribes: Int
        var resubscribes: Int
        var roomsDeleted: Int
    }

    struct Latencies: Codable {
        /// Request sent → its reply, every request.
        var reply: LatencySummary
        /// Score or round sent → every member still observing holds the version its reply carried.
        var fanOut: LatencySummary
        /// Connect + upgrade.
        var connect: LatencySummary
    }

    /// Where the server settled after the warm-up, where it was at the end, and how far apart.
    struct Levels: Codable {
        var settled: Level?
        var end: Level?
        var comparisons: [LevelComparison]
        /// The server once every connection had closed.
        var afterClose: LevelSample?

        init(settled: Level?, end: Level?, comparisons: [LevelComparison], afterClose: LevelSample?) {
            self.settled = settled
            self.end = end
            self.comparisons = comparisons
            self.afterClose = afterClose
        }

        /// Settled: the window right after the warm-up; end: the last window before the rooms wound
        /// down (the duration was over at `measuredSeconds`).
        init(samples: [LevelSample], parameters p: SoakParameters, measuredSeconds: Double, afterClose: LevelSample?) {
            let settled = Level(samples, from: p.warmupSeconds, to: p.warmupSeconds + p.windowSeconds)
            let end = Level(samples, from: measuredSeconds - p.windowSeconds, to: measuredSeconds)
            let comparisons = settled.flatMap { settled in
                end.map { LevelComparison.compare(settled: settled, end: $0, tolerancePercent: p.tolerancePercent) }
            } ?? []
            self.init(settled: settled, end: end, comparisons: comparisons, afterClose: afterClose)
        }
    }

    let scenario = "soak"
    var context: RunContext
    var parameters: SoakParameters
    var timing: Timing
    var counts: Counts
    var latency: Latencies
    var errorsByCode: [String: Int]
    var lifeFailures: [String: Int]
    var checks: SoakChecks
    var levels: Levels
    var samples: [LevelSample]
    var problems: [String]
    var passed: Bool { problems.isEmpty }

    private enum CodingKeys: String, CodingKey {
        case scenario, context, parameters, timing, counts, latency, errorsByCode, lifeFailures, checks, levels, samples
        case problems, passed
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scenario, forKey: .scenario)
        try container.encode(context, forKey: .context)
        try container.encode(parameters, forKey: .parameters)
        try container.encode(timing, forKey: .timing)
        try container.encode(counts, forKey: .counts)
        try container.encode(latency, forKey: .latency)
        try container.encode(errorsByCode, forKey: .errorsByCode)
        try container.encode(lifeFailures, forKey: .lifeFailures)
        try container.encode(checks, forKey: .checks)
        try container.encode(levels, forKey: .levels)
        try container.encode(samples, forKey: .samples)
        try container.encode(problems, forKey: .problems)
        try container.encode(passed, forKey: .passed)
    }

    init(
        context: RunContext, parameters: SoakParameters, run: SoakRun, timing: Timing, samples: [LevelSample],
        afterClose: LevelSample?, serverPid: Int32?
    ) {
        self.context = context
        self.parameters = parameters
        self.timing = timing
        self.samples = samples
        counts = Counts(
            livesStarted: run.livesStarted.current, livesFailed: run.livesFailed.current, fates: run.fates.snapshot,
            connectionsOpened: run.connectionsOpened.current, requests: run.requests.current, replies: run.replies.current,
            events: run.events.current, drops: run.drops.current, resumes: run.resumes.current, notResumed: run.notResumed.current,
            unsubscribes: run.unsubscribes.current, resubscribes: run.resubscribes.current, roomsDeleted: run.roomsDeleted.current)
        latency = Latencies(reply: run.replyLatency.summary, fanOut: run.fanOutLatency.summary, connect: run.connectLatency.summary)
        errorsByCode = run.errors.snapshot
        lifeFailures = run.failures.snapshot
        checks = run.checks.withLock { $0 }

        levels = Levels(samples: samples, parameters: parameters, measuredSeconds: timing.measuredSeconds, afterClose: afterClose)
        problems = Self.problems(
            counts: counts, errorsByCode: errorsByCode, lifeFailures: lifeFailures, checks: checks, levels: levels,
            tolerancePercent: parameters.tolerancePercent, serverSampled: serverPid != nil, interrupted: context.interrupted)
    }

    var table: String {
        let p = parameters
        var lines: [String] = []
        lines.append(
            "parlor-load soak: \(p.rooms) rooms × (\(p.players) players + \(p.spectators) spectators), an action every "
                + "\(p.intervalSeconds) s per room, \(p.durationSeconds) s (warm-up \(p.warmupSeconds) s, windows of "
                + "\(p.windowSeconds) s) (\(context.startedAt))")
        let fates = SoakFate.allCases.map { "\(counts.fates[$0.rawValue] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
        lines.append(
            "room lives: \(counts.livesStarted) started, \(fates), \(counts.livesFailed) failed; "
                + "\(counts.connectionsOpened) connections opened")
        lines.append(
            "churn: \(counts.drops) drops, \(counts.resumes) resumed (\(counts.notResumed) not as their user), "
                + "\(counts.unsubscribes) unsubscribes, \(counts.resubscribes) observed again, \(counts.roomsDeleted) rooms deleted")
        lines.append("traffic: \(counts.requests) requests, \(counts.replies) replies, \(counts.events) room events")
        lines.append("")
        var table = TextTable.latencyTable()
        table.add("request → reply", latency.reply)
        table.add("change → every member has it", latency.fanOut)
        table.add("connect", latency.connect)
        lines.append(table.text)
        lines.append("")
        var levelTable = TextTable(["server", "settled", "end", "change", "after close"])
        let after = levels.afterClose
        levelTable.add(row("resident memory", levels.settled?.residentBytes, levels.end?.residentBytes, after?.residentBytes, bytes: true))
        levelTable.add(row("open descriptors", levels.settled?.openFiles, levels.end?.openFiles, after?.openFiles))
        levelTable.add(row("threads", levels.settled?.threads, levels.end?.threads, after?.threads))
        for name in ["parlor_connections", "parlor_subscriptions", "parlor_connected_users", "parlor_rooms"] {
            levelTable.add(
                row(
                    name, levels.settled?.gauges[name].map { Int($0) }, levels.end?.gauges[name].map { Int($0) },
                    after?.gauges[name].map { Int($0) }))
        }
        lines.append(levelTable.text)
        if let settled = levels.settled, let end = levels.end {
            lines.append(
                String(
                    format: "settled: median of %d samples in %.0f–%.0f s; end: %d samples in %.0f–%.0f s; tolerance ±%.0f%%",
                    settled.samples, settled.fromSecond, settled.toSecond, end.samples, end.fromSecond, end.toSecond,
                    p.tolerancePercent))
        }
        lines.append("")
        lines.append("errors by code: \(describeTally(errorsByCode))")
        lines.append("failed lives: \(describeTally(lifeFailures))")
        lines.append(
            "checks: \(checks.roomsChecked) room lives checked, \(checks.membersBehind) members behind, "
                + "\(checks.nonIncreasingEvents) non-increasing events, \(checks.incompleteVersions) versions incomplete, "
                + "\(checks.deletionsMissed) deletions missed, \(checks.endsAfterReply) ends after their reply")
        func cores(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "-" }
        lines.append("CPU: server \(cores(timing.serverCPUCores)) cores, generator \(cores(timing.generatorCPUCores)) cores")
        lines.append("load average: \(context.loadAverageAtStart) at start, \(context.loadAverageAtEnd) at end (\(context.cores) cores)")
        if context.interrupted { lines.append("stopped early by Ctrl-C") }
        lines.append(passed ? "PASSED" : "FAILED: " + problems.joined(separator: "; "))
        return lines.joined(separator: "\n")
    }

    private func row(_ name: String, _ settled: Int?, _ end: Int?, _ after: Int?, bytes: Bool = false) -> [String] {
        func show(_ value: Int?) -> String { bytes ? formatBytes(value) : value.map(String.init) ?? "-" }
        var change = "-"
        if let settled, let end, settled != 0 { change = String(format: "%+.1f%%", Double(end - settled) / Double(settled) * 100) }
        return [name, show(settled), show(end), change, show(after)]
    }
}
