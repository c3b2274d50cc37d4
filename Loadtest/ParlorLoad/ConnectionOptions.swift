import ArgumentParser
import Foundation
import NIOCore
import Synchronization
import WebSocketCore

/// Options every load scenario shares: where the server is, how connections are made, what to report.
struct ConnectionOptions: ParsableArguments {
    @OptionGroup var address: ServerAddress

    @Option(help: ArgumentHelp(
        "Write report.json and report.html (the table, with latency-over-time and percentile charts as inline SVG) into this directory.",
        valueName: "dir"))
    var report: String?

    @Option(
        help: ArgumentHelp(
            "Spread connections round-robin over the source addresses 127.0.0.1 … 127.0.0.N.",
            discussion: "Each source address has its own range of local ports (~28,000 on Linux), so more than that many connections to one server need N > 1. Only for servers on loopback."))
    var sourceAddresses: Int = 1

    @Flag(help: "Offer permessage-deflate (off by default: players' phones on a LAN rarely need it, and it costs the generator CPU).")
    var compress = false

    @Option(
        help: ArgumentHelp(
            "Event loops (threads) the generator runs its connections on. Default: half this machine's cores, at least one.",
            discussion: "The generator usually shares the machine with the server it measures. More loops than the cores it can have make its threads and the server's take turns on the same cores: on two cores at 1,000 rooms × 8, one loop cost the generator 27 % less CPU than two, and the server less too (docs/BENCHMARKS.md).",
            valueName: "n"))
    var eventLoops: Int?

    @Option(help: "Seconds a TCP connect plus the WebSocket upgrade may take.")
    var connectTimeout: Double = 10

    @Option(help: "Seconds one connection's set-up requests (hello, create or observe) may take in idle and connect runs; past it the connection counts as failed.")
    var connectionSetupTimeout: Double = 30

    @Option(help: "The server's process id: report its resident memory and CPU use, read from /proc/PID.")
    var serverPid: Int32?

    @Option(help: "Write every figure and the run's parameters to this file as JSON.")
    var json: String?

    @Flag(help: "No progress line on stderr.")
    var quiet = false

    var url: String { address.url(default: "ws://127.0.0.1:8080/ws") }

    func validate() throws {
        do {
            let target = try WebSocketURL(url)
            if sourceAddresses > 1 && !target.host.hasPrefix("127.") {
                throw ValidationError("--source-addresses binds to 127.0.0.x, which only reaches a server on loopback (--server is \(url)).")
            }
        } catch let error as WebSocketClientError {
            throw ValidationError("--server \(url): \(error)")
        }
        guard (1...254).contains(sourceAddresses) else {
            throw ValidationError("--source-addresses must be between 1 and 254 (got \(sourceAddresses)).")
        }
        if let eventLoops, !(1...256).contains(eventLoops) {
            throw ValidationError("--event-loops must be between 1 and 256 (got \(eventLoops)).")
        }
        guard connectTimeout > 0, connectionSetupTimeout > 0 else {
            throw ValidationError("--connect-timeout and --connection-setup-timeout must be positive.")
        }
        if let serverPid, !ProcessStats(pid: serverPid).exists {
            throw ValidationError("--server-pid \(serverPid): no such process (it must run on this machine).")
        }
    }

    /// One client configuration per source address; connection `i` uses `configurations[i % count]`.
    /// The cap on each generator connection's read buffer.
    static let maximumReceiveBufferSize = 4_096

    func clientConfigurations(closeTimeout: TimeAmount? = nil) -> [WebSocketClientConfiguration] {
        var base = WebSocketClientConfiguration()
        if !compress { base.webSocket.compression = nil }
        // The generator never pings; it answers the server's pings (the connection does that by itself).
        base.webSocket.pingInterval = nil
        base.webSocket.idleTimeout = nil
        if let closeTimeout { base.webSocket.closeTimeout = closeTimeout }
        base.connectTimeout = .nanoseconds(Int64(connectTimeout * 1e9))
        base.handshakeTimeout = base.connectTimeout
        // Each connection keeps its read buffer at the largest size a burst grew it to: without a cap,
        // set-up's bursts left most of them at 8–16 KiB, the generator's largest cost per connection.
        // A room's frame is about a kilobyte; a longer read takes two.
        base.maximumReceiveBufferSize = Self.maximumReceiveBufferSize
        guard sourceAddresses > 1 else { return [base] }
        return (1...sourceAddresses).map { host in
            var configuration = base
            configuration.localAddress = "127.0.0.\(host)"
            return configuration
        }
    }

    var connectionSetupDeadline: Duration { .nanoseconds(Int64(connectionSetupTimeout * 1e9)) }

    /// The event loops the run's connections use: `--event-loops`, or half the cores (at least one).
    var effectiveEventLoops: Int { eventLoops ?? max(1, System.coreCount / 2) }

    /// Sizes NIO's shared event loop group, which every connection of the run uses, to
    /// `effectiveEventLoops`. Once per process, before the first connection (the group starts its threads
    /// when first used; NIO refuses a second setting).
    func startEventLoops() {
        Self.eventLoopsSet.withLock { set in
            guard !set else { return }
            set = true
            NIOSingletons.groupLoopCountSuggestion = effectiveEventLoops
        }
    }

    private static let eventLoopsSet = Mutex(false)

    /// Raises the open-file limit and checks local ports for `connections` (`portsPerConnection` 2 when
    /// each connection's port lingers in TIME_WAIT while it reconnects). Nil when all fit; else what to
    /// change, as a sentence for the operator.
    func checkCapacity(connections: Int, portsPerConnection: Int = 1) -> String? {
        if let problem = FileLimit.raise(for: connections) { return problem }
        if let ports = ProcessStats.ephemeralPortCount {
            let perAddress = (connections * portsPerConnection + sourceAddresses - 1) / sourceAddresses
            // Leave room for other programs on the machine.
            if perAddress > ports * 9 / 10 {
                let needed = (connections * portsPerConnection * 10 / 9) / ports + 1
                return """
                    \(connections) connections need about \(perAddress) local ports per source address, but the \
                    local port range (/proc/sys/net/ipv4/ip_local_port_range) has \(ports). Spread them with \
                    --source-addresses \(min(needed, 254)) (server on loopback), or widen the range.
                    """
            }
        }
        return nil
    }

    /// A warning when the server's own open-file limit cannot hold `connections`.
    func serverCapacityWarning(connections: Int) -> String? {
        guard let serverPid, let limit = ProcessStats(pid: serverPid).openFileLimit, limit < connections + 32 else { return nil }
        return """
            warning: the server (pid \(serverPid)) may open at most \(limit) files, fewer than the \(connections) \
            connections of this run need; start it from a shell with `ulimit -n \(connections + 256)` or expect \
            refused connections.
            """
    }

    /// Prints `problem` and stops with a non-zero status, before any connection is made.
    func refuse(_ problem: String) throws -> Never {
        ProgressLine.standardError.end()
        FileHandle.standardError.write(Data(("parlor-load: " + problem + "\n").utf8))
        throw ExitCode(2)
    }

    /// A message on stderr, unless `--quiet`.
    func progress(_ line: String) {
        guard !quiet else { return }
        ProgressLine.standardError.message(line)
    }

    /// This second's progress line on stderr (redrawn in place on a terminal), unless `--quiet`.
    func progressTick(_ line: String) {
        guard !quiet else { return }
        ProgressLine.standardError.update(line)
    }
}

/// Runs `body` once a second from `start` until `done` opens; `body` gets the time since `start`.
func everySecond(from start: ContinuousClock.Instant, until done: Gate<Bool>, _ body: (Duration) -> Void) async {
    var tick = start
    while !done.isOpen {
        tick += .seconds(1)
        let remaining = tick - .now
        if remaining > .zero, await done.wait(timeout: remaining) != nil { return }
        body(ContinuousClock.now - start)
    }
}

/// Waits until no task counted by `running` is left, at most `limit`.
func waitUntilFinished(_ running: Counter, atMost limit: Duration) async {
    let deadline = ContinuousClock.now + limit
    while running.current > 0 && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(50)) }
}

/// What every scenario's report offers: a table for people, problems that fail the run.
protocol LoadReport: Encodable {
    var table: String { get }
    /// Why the run failed; empty when it passed.
    var problems: [String] { get }
    /// What `--report`'s page draws; scenarios without a timeline draw nothing (their page has the table).
    var charts: ReportCharts { get }
    /// The page's heading.
    var title: String { get }
}

extension LoadReport {
    var charts: ReportCharts { ReportCharts() }
    var title: String { "parlor-load" }
}

extension ConnectionOptions {
    /// Prints the table, writes `--json`, and ends with exit status 1 when the run found problems.
    func finish(_ report: some LoadReport) throws {
        ProgressLine.standardError.end()
        print(report.table)
        if let json { try writeJSON(report, to: json) }
        if let directory = self.report { try HTMLReport.write(report, title: report.title, to: directory) }
        guard report.problems.isEmpty else {
            FileHandle.standardError.write(Data(("parlor-load: FAILED: " + report.problems.joined(separator: "; ") + "\n").utf8))
            throw ExitCode(1)
        }
    }
}
