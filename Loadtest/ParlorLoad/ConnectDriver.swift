import Foundation
import ParlorWire
import WebSocketCore

struct ConnectParameters: Codable, Sendable {
    var url: String
    var connections: Int
    var concurrency: Int
    var stormConcurrency: Int
    var polite: Bool
    var holdSeconds: Double
    var waveTimeoutSeconds: Double
    var sourceAddresses: Int
    var compress: Bool
}

/// One wave of connections (the first, or the storm): who got in, how fast, and why others did not.
final class Wave: Sendable {
    let connected = Counter()
    let failed = Counter()
    /// Connect + upgrade + hello reply.
    let latency = LatencyRecorder()
    let failures = Tally()
    private let finishedCount = Counter()
    private let expected = Gate<Int>()
    /// Opens when the last connection of the wave got in or failed, with that time.
    let complete = Gate<ContinuousClock.Instant>()

    /// The wave will have `count` connections.
    func expect(_ count: Int) {
        expected.open(count)
        if count == 0 || finishedCount.current >= count { complete.open(.now) }
    }

    /// One connection got in or failed.
    func finished() {
        let done = finishedCount.add()
        if let expected = expected.value, done >= expected { complete.open(.now) }
    }

    var finishedSoFar: Int { finishedCount.current }
}

/// Runs a `connect` load: the first wave, the drop, the storm.
struct ConnectDriver {
    let parameters: ConnectParameters
    let options: ConnectionOptions

    final class Run: Sendable {
        let parameters: ConnectParameters
        let firstConfigurations: [WebSocketClientConfiguration]
        let stormConfigurations: [WebSocketClientConfiguration]
        let first = Wave()
        let storm = Wave()
        let open = Counter()
        let closed = Counter()
        let resumed = Counter()
        let notResumed = Counter()
        /// Connections of the first wave the server closed before the drop.
        let droppedEarly = Counter()
        let drop = Gate<Bool>()
        let allClosed = Gate<ContinuousClock.Instant>()
        let stormStart = Gate<Bool>()
        let finish = Gate<Bool>()
        let running = Counter()
        let stormSlots: AsyncSemaphore
        let setupDeadline: Duration

        init(parameters: ConnectParameters, options: ConnectionOptions) {
            self.parameters = parameters
            setupDeadline = options.connectionSetupDeadline
            // Abrupt: our close frame goes out and TCP is dropped at once, without waiting for an answer.
            firstConfigurations = options.clientConfigurations(closeTimeout: parameters.polite ? nil : .zero)
            stormConfigurations = options.clientConfigurations()
            stormSlots = AsyncSemaphore(parameters.stormConcurrency)
        }
    }

    func run() async -> ConnectReport {
        var context = RunContext.now()
        let run = Run(parameters: parameters, options: options)
        let server = options.serverPid.map { ProcessStats(pid: $0) }
        let serverAtStart = server?.residentBytes
        var timing = ConnectReport.Timing()
        var serverLoaded: Int?
        let serverSampler = server.map(CPUSampler.init)
        let waveTimeout = Duration.seconds(parameters.waveTimeoutSeconds)
        let began = ContinuousClock.now
        let done = Gate<Bool>()
        run.first.expect(parameters.connections)

        await withDiscardingTaskGroup { group in
            group.addTask { await progress(run, began: began, done: done) }
            let slots = AsyncSemaphore(parameters.concurrency)
            for index in 0..<parameters.connections {
                await slots.acquire()
                group.addTask { await StormClient(run: run, index: index, firstSlot: slots).run() }
            }
            let firstDone = await run.first.complete.wait(timeout: waveTimeout)
            timing.firstWaveSeconds = ((firstDone ?? .now) - began).seconds
            timing.firstWaveTimedOut = firstDone == nil
            serverLoaded = server?.residentBytes
            try? await Task.sleep(for: .seconds(parameters.holdSeconds))

            let dropStart = ContinuousClock.now
            run.drop.open(true)
            let closedAt = await run.allClosed.wait(timeout: waveTimeout)
            timing.dropSeconds = ((closedAt ?? .now) - dropStart).seconds

            run.storm.expect(run.first.connected.current)
            let stormBegan = ContinuousClock.now
            run.stormStart.open(true)
            let stormDone = await run.storm.complete.wait(timeout: waveTimeout)
            timing.stormSeconds = ((stormDone ?? .now) - stormBegan).seconds
            timing.stormTimedOut = stormDone == nil

            run.finish.open(true)
            await waitUntilFinished(run.running, atMost: .seconds(10))
            done.open(true)
            group.cancelAll()
        }
        context.loadAverageAtEnd = ProcessStats.loadAverage
        context.interrupted = Interrupt.requested.isOpen
        timing.totalSeconds = (ContinuousClock.now - began).seconds
        return ConnectReport(
            context: context, parameters: parameters, run: run, timing: timing,
            server: options.serverPid.map {
                ProcessUsage(
                    pid: String($0), residentBytesAtStart: serverAtStart, residentBytesLoaded: serverLoaded,
                    residentBytesAtEnd: server?.residentBytes, cpuCores: serverSampler?.coresUsed)
            })
    }

    private func progress(_ run: Run, began: ContinuousClock.Instant, done: Gate<Bool>) async {
        guard !options.quiet else { return }
        var last = (first: 0, storm: 0)
        await everySecond(from: began, until: done) { elapsed in
            let now = (first: run.first.connected.current, storm: run.storm.connected.current)
            defer { last = now }
            let phase = run.stormStart.isOpen ? "storm" : run.drop.isOpen ? "drop " : "first"
            options.progressTick(
                String(format: "[%4.0fs] ", elapsed.seconds) + phase
                    + "  connects \(now.first - last.first + now.storm - last.storm)/s"
                    + "  connected \(now.first)+\(now.storm)  failed \(run.first.failed.current)+\(run.storm.failed.current)"
                    + "  p99 connect \(formatMilliseconds((run.stormStart.isOpen ? run.storm : run.first).latency.milliseconds(atPercentile: 99)))"
                    + "  resumed \(run.resumed.current)  conns \(run.open.current)")
        }
    }
}

/// One connection of a `connect` run: in with the first wave, out with the drop, back with the storm.
private struct StormClient: Sendable {
    let run: ConnectDriver.Run
    let index: Int
    let firstSlot: AsyncSemaphore

    func run() async {
        run.running.add()
        defer { run.running.subtract() }
        let token = await firstWave()
        if run.closed.add() == run.parameters.connections { run.allClosed.open(.now) }
        guard let token, await run.stormStart.wait() != nil else { return }
        await reconnect(token: token)
    }

    /// Connects and signs in, holds until the drop, then drops. Returns the token (nil: never got in).
    private func firstWave() async -> String? {
        let configurations = run.firstConfigurations
        var token: String?
        var released = false
        let began = ContinuousClock.now
        do {
            try await WebSocketClient.connect(to: run.parameters.url, configuration: configurations[index % configurations.count]) {
                webSocket in
                var connection = LoadConnection(webSocket)
                let hello = try await withSetupDeadline(webSocket, run.setupDeadline, phase: "hello") {
                    try await connection.call(.hello(HelloArguments()), as: HelloResult.self)
                }
                run.first.latency.record(.now - began)
                run.first.connected.add()
                run.open.add()
                defer { run.open.subtract() }
                token = hello.token
                firstSlot.release()
                released = true
                run.first.finished()
                guard await run.drop.wait() != nil else { return }
                if webSocket.isActive {
                    await webSocket.close(code: run.parameters.polite ? .normalClosure : .goingAway)
                } else {
                    run.droppedEarly.add()
                    run.first.failures.add("closed by the server before the drop: \(await webSocket.closeStatus.code)")
                }
            }
        } catch {
            if !released {
                firstSlot.release()
                run.first.failed.add()
                run.first.failures.add(FailureReason.of(error))
                run.first.finished()
            }
        }
        return token
    }

    /// Reconnects presenting the token; the server should resume the same user.
    private func reconnect(token: String) async {
        let configurations = run.stormConfigurations
        await run.stormSlots.acquire()
        var released = false
        let began = ContinuousClock.now
        do {
            try await WebSocketClient.connect(to: run.parameters.url, configuration: configurations[index % configurations.count]) {
                webSocket in
                var connection = LoadConnection(webSocket)
                let hello = try await withSetupDeadline(webSocket, run.setupDeadline, phase: "hello") {
                    try await connection.call(.hello(HelloArguments(token: token)), as: HelloResult.self)
                }
                run.storm.latency.record(.now - began)
                run.storm.connected.add()
                (hello.resumed ? run.resumed : run.notResumed).add()
                run.open.add()
                defer { run.open.subtract() }
                run.stormSlots.release()
                released = true
                run.storm.finished()
                _ = await run.finish.wait()
            }
        } catch {
            if !released {
                run.stormSlots.release()
                run.storm.failed.add()
                run.storm.failures.add(FailureReason.of(error))
                run.storm.finished()
            }
        }
    }
}
