import Foundation
import NIOCore
import ParlorWire
import WebSocketCore

struct IdleParameters: Codable, Sendable {
    var url: String
    var connections: Int
    var perRoom: Int
    var durationSeconds: Double
    var concurrency: Int
    var setupTimeoutSeconds: Double
    var sourceAddresses: Int
    var compress: Bool
    var serverPid: Int32?

    var roomCount: Int { (connections + perRoom - 1) / perRoom }
}

/// Runs an `idle` load: sets up every connection at a bounded pace, holds them while sampling memory,
/// then closes them.
struct IdleDriver {
    let parameters: IdleParameters
    let options: ConnectionOptions

    final class Run: Sendable {
        let parameters: IdleParameters
        let configurations: [WebSocketClientConfiguration]
        let setupDeadline: Duration
        let open = Counter()
        let established = Counter()
        let failed = Counter()
        let lost = Counter()
        let events = Counter()
        let running = Counter()
        let failures = Tally()
        let connectLatency = LatencyRecorder()
        /// Each room's code, once its first connection created it; nil if that failed.
        let roomCodes: [Gate<String?>]
        private let setUpCount = Counter()
        let allSetUp = Gate<ContinuousClock.Instant>()
        let finish = Gate<Bool>()

        init(parameters: IdleParameters, configurations: [WebSocketClientConfiguration], setupDeadline: Duration) {
            self.parameters = parameters
            self.configurations = configurations
            self.setupDeadline = setupDeadline
            roomCodes = (0..<parameters.roomCount).map { _ in Gate<String?>() }
        }

        /// One connection is in (or failed).
        func setUpFinished() {
            if setUpCount.add() == parameters.connections { allSetUp.open(.now) }
        }
    }

    static let metricNames: Set<String> = ["parlor_connections", "parlor_subscriptions", "parlor_rooms"]

    func run() async -> IdleReport {
        var context = RunContext.now()
        let run = Run(parameters: parameters, configurations: options.clientConfigurations(), setupDeadline: options.connectionSetupDeadline)
        let server = parameters.serverPid.map { ProcessStats(pid: $0) }
        let metrics = MetricsScrape.endpoint(forWebSocketURL: parameters.url)
        var report = IdleReport(context: context, parameters: parameters)
        report.server.residentBytesBefore = server?.residentBytes
        report.generator.residentBytesBefore = ProcessStats.current.residentBytes
        if let metrics { report.serverMetricsBefore = await MetricsScrape.gauges(Self.metricNames, host: metrics.host, port: metrics.port) }
        let began = ContinuousClock.now
        let done = Gate<Bool>()

        await withDiscardingTaskGroup { group in
            group.addTask { await progress(run, began: began, done: done) }
            let slots = AsyncSemaphore(parameters.concurrency)
            for index in 0..<parameters.connections {
                await slots.acquire()
                group.addTask { await IdleClient(run: run, index: index, slot: slots).run() }
            }
            let allIn = await run.allSetUp.wait(timeout: .seconds(parameters.setupTimeoutSeconds))
            report.timing.setupSeconds = ((allIn ?? .now) - began).seconds
            report.timing.setupTimedOut = allIn == nil

            // Hold, sampling resident memory each second.
            let holdStart = ContinuousClock.now
            let serverCPU = server.map(CPUSampler.init)
            let generatorCPU = CPUSampler(.current)
            var tick = holdStart
            while tick < holdStart + .seconds(parameters.durationSeconds) && !Interrupt.requested.isOpen {
                tick += .seconds(1)
                await Interrupt.sleep(until: tick)
                if let rss = server?.residentBytes { report.server.samples.append(rss) }
                if let rss = ProcessStats.current.residentBytes { report.generator.samples.append(rss) }
            }
            report.timing.holdSeconds = (ContinuousClock.now - holdStart).seconds
            report.server.cpuCoresWhileHolding = serverCPU?.coresUsed
            report.generator.cpuCoresWhileHolding = generatorCPU.coresUsed
            if let metrics {
                report.serverMetricsHolding = await MetricsScrape.gauges(Self.metricNames, host: metrics.host, port: metrics.port)
            }
            report.held = run.open.current

            run.finish.open(true)
            await waitUntilFinished(run.running, atMost: .seconds(30))
            done.open(true)
            group.cancelAll()
        }
        context.loadAverageAtEnd = ProcessStats.loadAverage
        context.interrupted = Interrupt.requested.isOpen
        report.finish(context: context, run: run)
        return report
    }

    private func progress(_ run: Run, began: ContinuousClock.Instant, done: Gate<Bool>) async {
        guard !options.quiet else { return }
        let server = parameters.serverPid.map { ProcessStats(pid: $0) }
        var last = 0
        await everySecond(from: began, until: done) { elapsed in
            let now = run.established.current
            defer { last = now }
            let phase = run.finish.isOpen ? "close" : run.allSetUp.isOpen ? "hold " : "setup"
            options.progressTick(
                String(format: "[%4.0fs] ", elapsed.seconds) + phase + "  connects \(now - last)/s"
                    + "  in \(now)/\(parameters.connections)  failed \(run.failed.current)  lost \(run.lost.current)"
                    + "  conns \(run.open.current)  server RSS \(formatBytes(server?.residentBytes))")
        }
    }
}

/// One idle connection: signs in, creates (the first of each room) or observes its room, then stays
/// until the run ends, reading whatever the server sends (room events, pings answered by the transport).
///
/// Set-up is a task; once in, the connection is handed to a receiver on its event loop (`IdleReceiver`)
/// and the task ends, so a held connection costs its channel and no task. `run.running` counts it until
/// its connection has closed.
private struct IdleClient: Sendable {
    let run: IdleDriver.Run
    let index: Int
    let slot: AsyncSemaphore

    func run() async {
        run.running.add()
        var holding = false
        defer { if !holding { run.running.subtract() } }
        let room = index / run.parameters.perRoom
        let isCreator = index % run.parameters.perRoom == 0
        let began = ContinuousClock.now
        do {
            let configuration = run.configurations[index % run.configurations.count]
            let webSocket = try await WebSocketClient.open(to: run.parameters.url, configuration: configuration)
            do {
                let leave = try await withTaskExecutorPreference(EventLoopTaskExecutor.for(webSocket.connection.eventLoop)) {
                    var connection = LoadConnection(webSocket)
                    var leave: ByteBuffer?
                    try await withSetupDeadline(webSocket, run.setupDeadline, phase: "set-up") {
                        let user = try await connection.call(.hello(HelloArguments()), as: HelloResult.self).userId
                        let code: String
                        if isCreator {
                            let created = try await connection.call(
                                .createRoom(CreateRoomArguments(pointLimit: 100, pointValue: 1, playerCount: 2, playerName: "Idle \(room)")),
                                as: RoomServiceResult.self)
                            code = created.room.id.rawValue
                            run.roomCodes[room].open(code)
                            leave = ByteBuffer(bytes: try Request(
                                id: .number(RoomMember.leaveID), operation: .leaveRoom(LeaveRoomArguments(roomCode: code, playerId: user))
                            ).encoded())
                        } else {
                            guard let shared = await run.roomCodes[room].wait(), let shared else { throw LoadFailure.roomFailed }
                            code = shared
                        }
                        _ = try await connection.call(.observeRoom(CodeArguments(code: code)), as: Subscribed.self)
                    }
                    return leave
                }
                run.connectLatency.record(.now - began)
                run.established.add()
                run.open.add()
                holding = true
                await hold(webSocket, leave: leave)
            } catch {
                await webSocket.close(code: .internalError)
                throw error
            }
            slot.release()
            run.setUpFinished()
        } catch {
            if isCreator { run.roomCodes[room].open(nil) }
            run.failed.add()
            run.failures.add("set-up: " + FailureReason.of(error))
            slot.release()
            run.setUpFinished()
        }
    }

    /// Hands the connection to a receiver that counts what arrives until the run ends; then the room's
    /// creator (its only player) leaves it, which deletes it, so the server does not keep it until it
    /// expires, and the connection closes (`LeaveThenClose`).
    private func hold(_ webSocket: WebSocket, leave: ByteBuffer?) async {
        let ending = LeaveThenClose(webSocket.connection, leave: leave)
        await webSocket.handOver(to: IdleReceiver(run: run, ending: ending))
        ending.whenOpen(run.finish)
    }
}

/// A held idle connection's inbound side, on its event loop.
private final class IdleReceiver: WebSocketReceiver {
    let run: IdleDriver.Run
    let ending: LeaveThenClose

    init(run: IdleDriver.Run, ending: LeaveThenClose) {
        self.run = run
        self.ending = ending
    }

    func received(_ message: WebSocketMessage) -> WebSocketReadDemand {
        if run.finish.isOpen {
            ending.received(message)
        } else {
            run.events.add()
        }
        return .more
    }

    func receivedProtocolViolation() {
        // The server broke the protocol; the connection fails (and `closed` reports it) at once.
    }

    func writabilityChanged(isWritable: Bool) {}
    func serverShuttingDown() {}

    func closed(_ status: WebSocketCloseStatus) {
        ending.closed()
        if !run.finish.isOpen {
            run.lost.add()
            run.failures.add("hold: " + LoadFailure.closed(status).description)
        }
        run.open.subtract()
        run.running.subtract()
    }
}
