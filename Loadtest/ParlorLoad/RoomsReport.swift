import Foundation

/// Everything a `rooms` or `darts` run measured, as written to `--json` and printed as a table. (A
/// darts run's matches are its `rooms`, its visits its actions.)
struct RoomsReport: LoadReport {
    struct Timing: Codable {
        /// From the first connection to the last room ready (or failed).
        var setupSeconds = 0.0
        /// The measured window: first submission due → last one due.
        var measuredSeconds = 0.0
        /// Waiting for outstanding replies and events afterwards.
        var drainSeconds = 0.0
        var totalSeconds = 0.0
    }

    struct Counts: Codable {
        var connections: Int
        var roomsReady: Int
        var roomsFailed: Int
        var actionsSent: Int
        var replies: Int
        var errorReplies: Int
        /// Submissions sent that got no reply by the end of the drain.
        var missingReplies: Int
        /// Room events received, set-up included.
        var events: Int
        /// Members whose connection ended before the run did.
        var lostMembers: Int
        /// Members that moved, during set-up, to the node of a cluster serving their game.
        var movedMembers: Int = 0
    }

    /// Per second over the measured window.
    struct Rates: Codable {
        var actions: Double
        var replies: Double
        var events: Double
        /// Replies plus events: every message the players received.
        var messages: Double
    }

    struct Latencies: Codable {
        /// Submission due → its reply.
        var reply: LatencySummary
        /// Submission due → every member of the room holds the version its reply carried.
        var fanOut: LatencySummary
        /// Submission due → actually sent (the generator's own lag).
        var generatorLag: LatencySummary
        /// Connect + upgrade + hello, per connection.
        var connect: LatencySummary
        /// One room's set-up: created, joined, readied, started, seen by all.
        var roomSetup: LatencySummary
    }

    /// "Every member received every version": each member's last version is its room's final one, and
    /// each member's versions only went up.
    struct Checks: Codable {
        var membersBehind: Int
        var nonIncreasingEvents: Int
        var incompleteVersions: Int
        var droppedVersions: Int
    }

    var scenario: String { parameters.game.scenario }
    var context: RunContext
    var parameters: RoomsParameters
    var timing: Timing
    var counts: Counts
    var rates: Rates
    var latency: Latencies
    var errorsByCode: [String: Int]
    var connectionFailures: [String: Int]
    var checks: Checks
    var server: ProcessUsage?
    /// The server's own histograms from /metrics, this run's share (read before set-up and after the
    /// drain, the difference): the measured operation's handling time (`submitScore`; `recordVisit` for
    /// darts, written as `serverRecordVisit`) and publication → frames written to the sockets.
    var serverSubmitScore: ServerHistogram?
    var serverBroadcast: ServerHistogram?
    /// The same histograms over the server's whole life, earlier runs included.
    var serverLifetimeSubmitScore: ServerHistogram?
    var serverLifetimeBroadcast: ServerHistogram?
    var generator: ProcessUsage
    var rooms: [FanOutTracker.Outcome]
    /// One entry per second: counts and the latencies recorded in that second.
    var timeline: [TimelineEntry]
    /// The reply and fan-out distributions at the percentiles `--report`'s chart plots.
    var percentiles: LatencyPercentiles
    /// Why the run failed; empty when it passed (exit status 0).
    var problems: [String]
    var passed: Bool { problems.isEmpty }

    private enum CodingKeys: String, CodingKey {
        case scenario, context, parameters, timing, counts, rates, latency, errorsByCode, connectionFailures, checks
        case server, serverSubmitScore, serverRecordVisit, serverBroadcast, generator, rooms, timeline, percentiles, problems, passed
        case serverLifetimeSubmitScore, serverLifetimeRecordVisit, serverLifetimeBroadcast
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scenario, forKey: .scenario)
        try container.encode(context, forKey: .context)
        try container.encode(parameters, forKey: .parameters)
        try container.encode(timing, forKey: .timing)
        try container.encode(counts, forKey: .counts)
        try container.encode(rates, forKey: .rates)
        try container.encode(latency, forKey: .latency)
        try container.encode(errorsByCode, forKey: .errorsByCode)
        try container.encode(connectionFailures, forKey: .connectionFailures)
        try container.encode(checks, forKey: .checks)
        try container.encodeIfPresent(server, forKey: .server)
        try container.encodeIfPresent(serverSubmitScore, forKey: parameters.game == .darts ? .serverRecordVisit : .serverSubmitScore)
        try container.encodeIfPresent(serverBroadcast, forKey: .serverBroadcast)
        try container.encodeIfPresent(
            serverLifetimeSubmitScore, forKey: parameters.game == .darts ? .serverLifetimeRecordVisit : .serverLifetimeSubmitScore)
        try container.encodeIfPresent(serverLifetimeBroadcast, forKey: .serverLifetimeBroadcast)
        try container.encode(generator, forKey: .generator)
        try container.encode(rooms, forKey: .rooms)
        try container.encode(timeline, forKey: .timeline)
        try container.encode(percentiles, forKey: .percentiles)
        try container.encode(problems, forKey: .problems)
        try container.encode(passed, forKey: .passed)
    }

    init(
        context: RunContext, parameters: RoomsParameters, run: RoomsRun, rooms: [RoomPlan], window: (RoomsRun.Snapshot, RoomsRun.Snapshot),
        timing: Timing, server: ProcessUsage?, generator: ProcessUsage
    ) {
        self.context = context
        self.parameters = parameters
        self.timing = timing
        self.server = server
        self.generator = generator
        let answered = run.replies.current + run.errorReplies.current
        counts = Counts(
            connections: parameters.connections, roomsReady: run.roomsReady.current, roomsFailed: run.roomsFailed.current,
            actionsSent: run.actionsSent.current, replies: run.replies.current, errorReplies: run.errorReplies.current,
            missingReplies: max(0, run.actionsSent.current - answered), events: run.events.current,
            lostMembers: run.lostMembers.current, movedMembers: run.moves.current)
        let seconds = max(timing.measuredSeconds, 1e-9)
        let (first, last) = window
        rates = Rates(
            actions: Double(last.actions - first.actions) / seconds, replies: Double(last.replies - first.replies) / seconds,
            events: Double(last.events - first.events) / seconds,
            messages: Double(last.replies - first.replies + last.events - first.events) / seconds)
        latency = Latencies(
            reply: run.replyLatency.summary, fanOut: run.fanOutLatency.summary, generatorLag: run.generatorLag.summary,
            connect: run.connectLatency.summary, roomSetup: run.roomSetup.summary)
        errorsByCode = run.errors.snapshot
        connectionFailures = run.failures.snapshot
        let outcomes = rooms.filter { !$0.failed }.map(\.tracker.outcome)
        self.rooms = outcomes
        timeline = run.timeline.withLock { $0 }
        percentiles = LatencyPercentiles(reply: run.replyLatency.percentileCurve, fanOut: run.fanOutLatency.percentileCurve)
        checks = Checks(
            membersBehind: outcomes.reduce(0) { $0 + $1.behind },
            nonIncreasingEvents: outcomes.reduce(0) { $0 + $1.nonIncreasing },
            incompleteVersions: outcomes.reduce(0) { $0 + $1.incomplete },
            droppedVersions: outcomes.reduce(0) { $0 + $1.dropped })

        var problems: [String] = []
        let game = parameters.game
        if counts.roomsFailed > 0 { problems.append("\(counts.roomsFailed) \(game.plural) failed to set up") }
        if counts.actionsSent == 0 { problems.append("no \(game.action.dropFirst(2)) was sent") }
        let errorCount = errorsByCode.values.reduce(0, +)
        if errorCount > 0 { problems.append("\(errorCount) errors (\(describeTally(errorsByCode)))") }
        let failureCount = connectionFailures.values.reduce(0, +)
        if failureCount > 0 { problems.append("\(failureCount) connection failures (\(describeTally(connectionFailures)))") }
        if counts.missingReplies > 0 { problems.append("\(counts.missingReplies) submissions got no reply") }
        if checks.membersBehind > 0 { problems.append("\(checks.membersBehind) members did not receive their \(game.noun)'s final version") }
        if checks.nonIncreasingEvents > 0 { problems.append("\(checks.nonIncreasingEvents) \(game.event) events did not increase the version") }
        if checks.incompleteVersions > 0 { problems.append("\(checks.incompleteVersions) versions never reached every member") }
        if checks.droppedVersions > 0 { problems.append("\(checks.droppedVersions) versions were dropped from tracking (too many in flight)") }
        self.problems = problems
    }

    var table: String {
        let p = parameters
        var lines: [String] = []
        let game = p.game
        lines.append(
            "parlor-load \(game.scenario): \(p.rooms) \(game.plural) × \(p.players) players + \(p.spectators) spectators = "
                + "\(p.connections) connections, \(game.action) per player every \(p.intervalSeconds) s, \(p.durationSeconds) s measured "
                + "(\(context.startedAt))")
        lines.append(
            "set-up: \(counts.roomsReady) \(game.plural) ready, \(counts.roomsFailed) failed, "
                + String(
                    format: "in %.2f s; measured %.1f s, drained %.2f s", timing.setupSeconds, timing.measuredSeconds, timing.drainSeconds)
                + (counts.movedMembers > 0 ? "; \(counts.movedMembers) members moved to their \(game.noun)'s node" : ""))
        lines.append(
            "rates: \(formatRate(rates.actions)) actions/s, \(formatRate(rates.replies)) replies/s, "
                + "\(formatRate(rates.events)) events/s, \(formatRate(rates.messages)) messages delivered/s")
        lines.append("")
        var table = TextTable.latencyTable()
        table.add("action → reply", latency.reply)
        table.add("action → every member has it", latency.fanOut)
        table.add("generator lag (sent − due)", latency.generatorLag)
        table.add("connect + hello", latency.connect)
        table.add("\(game.noun) set-up", latency.roomSetup)
        lines.append(table.text)
        lines.append("")
        lines.append("\(game.actions): \(counts.actionsSent) sent, \(counts.replies) replies, \(counts.errorReplies) errors, \(counts.missingReplies) unanswered")
        lines.append("errors by code: \(describeTally(errorsByCode))")
        lines.append("connection failures: \(describeTally(connectionFailures))")
        lines.append(
            "checks: \(checks.membersBehind) members behind their \(game.noun)'s final version, \(checks.nonIncreasingEvents) non-increasing events, "
                + "\(checks.incompleteVersions) versions incomplete, \(checks.droppedVersions) dropped")
        if let server {
            lines.append(
                "server (pid \(server.pid)): RSS \(formatBytes(server.residentBytesAtStart)) at start, "
                    + "\(formatBytes(server.residentBytesLoaded)) after set-up, \(formatBytes(server.residentBytesAtEnd)) at end; "
                    + "CPU \(server.cpuCores.map { String(format: "%.2f", $0) } ?? "-") cores while measured")
        }
        if let serverSubmitScore { lines.append("server's own \(game.operation) handling, this run: \(serverSubmitScore.description)") }
        if let serverBroadcast { lines.append("server's own broadcast (publish → written to the sockets), this run: \(serverBroadcast.description)") }
        if let serverLifetimeSubmitScore {
            lines.append("server's own \(game.operation) handling, its whole life: \(serverLifetimeSubmitScore.description)")
        }
        if let serverLifetimeBroadcast { lines.append("server's own broadcast, its whole life: \(serverLifetimeBroadcast.description)") }
        lines.append(
            "generator: RSS \(formatBytes(generator.residentBytesLoaded)) after set-up; "
                + "CPU \(generator.cpuCores.map { String(format: "%.2f", $0) } ?? "-") cores while measured"
                + (generator.eventLoops.map { " on \($0) event loop\($0 == 1 ? "" : "s")" } ?? ""))
        lines.append("load average: \(context.loadAverageAtStart) at start, \(context.loadAverageAtEnd) at end (\(context.cores) cores)")
        if context.interrupted { lines.append("stopped early by Ctrl-C") }
        lines.append(passed ? "PASSED" : "FAILED: " + problems.joined(separator: "; "))
        return lines.joined(separator: "\n")
    }
}
