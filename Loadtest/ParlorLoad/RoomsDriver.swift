import Foundation

/// Runs a `rooms` (or `darts`) load: sets up the rooms (or matches) at a bounded pace, measures for the duration, drains, closes
/// every connection and gathers the report.
struct RoomsDriver {
    let parameters: RoomsParameters
    let options: ConnectionOptions

    /// What `parlor-load rooms` and `darts` do once their options are read: check that the machine can
    /// hold the connections, say what the run will do, run it and report (the exit status says whether
    /// it passed).
    static func run(_ parameters: RoomsParameters, options: ConnectionOptions) async throws {
        options.startEventLoops()
        if let problem = options.checkCapacity(connections: parameters.connections) { try options.refuse(problem) }
        if let warning = options.serverCapacityWarning(connections: parameters.connections) { options.progress(warning) }
        let game = parameters.game
        let rate = Double(parameters.rooms * parameters.players) / parameters.intervalSeconds
        options.progress(
            "\(game.scenario): \(parameters.rooms) \(game.plural) × \(parameters.players) players + \(parameters.spectators) spectators "
                + "= \(parameters.connections) connections, \(formatRate(rate)) \(game.actions)/s for \(parameters.durationSeconds) s")
        Interrupt.install()
        let report = await RoomsDriver(parameters: parameters, options: options).run()
        try options.finish(report)
    }

    /// Time between the last room's set-up and the first submission, so set-up traffic has settled.
    static let settle: Duration = .seconds(1)

    func run() async -> RoomsReport {
        var context = RunContext.now()
        let run = RoomsRun(parameters: parameters, configurations: options.clientConfigurations())
        let server = options.serverPid.map { ProcessStats(pid: $0) }
        let serverAtStart = server?.residentBytes
        let generatorAtStart = ProcessStats.current.residentBytes
        let allSetUp = Gate<Bool>()
        let done = Gate<Bool>()
        let rooms = (0..<parameters.rooms).map {
            RoomPlan(index: $0, memberCount: parameters.membersPerRoom, fanOut: run.fanOutLatency)
        }
        var timing = RoomsReport.Timing()
        var serverLoaded: Int?
        var generatorLoaded: Int?
        var window = (run.snapshot, run.snapshot)
        var serverCPU: Double?
        let serverEndpoint = MetricsScrape.endpoint(forWebSocketURL: parameters.url)
        let operationLabel = "op=\"\(parameters.game.operation)\""
        // The server's histograms before this run, so the report can tell this run's share from the
        // server's lifetime figures.
        var serverAtStartText: String?
        if let serverEndpoint { serverAtStartText = await MetricsScrape.text(host: serverEndpoint.host, port: serverEndpoint.port) }
        var serverHistograms = ServerHistograms()
        var generatorCPU: Double?
        let began = ContinuousClock.now

        await withDiscardingTaskGroup { group in
            group.addTask { await progress(run, began: began, done: done) }
            let semaphore = AsyncSemaphore(parameters.setupConcurrency)
            for room in rooms {
                await semaphore.acquire()
                if Interrupt.requested.isOpen {
                    // Ctrl-C during set-up: the rooms not started yet are not measured.
                    semaphore.release()
                    room.fail("interrupted")
                    if run.roomsFailed.add() + run.roomsReady.current == parameters.rooms { allSetUp.open(true) }
                    continue
                }
                for member in 0..<parameters.membersPerRoom {
                    let member = RoomMember(
                        run: run, room: room, member: member, connection: room.index * parameters.membersPerRoom + member)
                    group.addTask { await member.run() }
                }
                group.addTask {
                    let setupStart = ContinuousClock.now
                    let ready = await room.tracker.caughtUp.wait(timeout: .seconds(parameters.setupTimeoutSeconds))
                    if ready == true && !room.failed {
                        run.roomSetup.record(.now - setupStart)
                        run.roomsReady.add()
                    } else {
                        room.fail(ready == nil ? "set-up timed out" : "set-up failed")
                        if ready == nil { run.failures.add("set-up: room set-up timed out") }
                        run.roomsFailed.add()
                    }
                    semaphore.release()
                    if run.roomsReady.current + run.roomsFailed.current == parameters.rooms { allSetUp.open(true) }
                }
            }
            _ = await allSetUp.wait()
            timing.setupSeconds = (ContinuousClock.now - began).seconds
            serverLoaded = server?.residentBytes
            generatorLoaded = ProcessStats.current.residentBytes

            let start = ContinuousClock.now + Self.settle
            run.start.open(start)
            await Interrupt.sleep(until: start)
            let serverSampler = server.map(CPUSampler.init)
            let generatorSampler = CPUSampler(.current)
            window.0 = run.snapshot
            await Interrupt.sleep(until: start + parameters.duration)
            run.stopSending.open(true)
            window.1 = run.snapshot
            serverCPU = serverSampler?.coresUsed
            generatorCPU = generatorSampler.coresUsed
            timing.measuredSeconds = (ContinuousClock.now - start).seconds

            // Drain: wait for the replies and events of submissions already sent.
            let drainStart = ContinuousClock.now
            let drainEnd = drainStart + .seconds(parameters.drainSeconds)
            while ContinuousClock.now < drainEnd {
                let answered = run.replies.current + run.errorReplies.current
                if answered >= run.actionsSent.current && rooms.allSatisfy({ $0.failed || $0.tracker.inFlight == 0 }) { break }
                try? await Task.sleep(for: .milliseconds(50))
            }
            timing.drainSeconds = (ContinuousClock.now - drainStart).seconds
            if let serverEndpoint, let text = await MetricsScrape.text(host: serverEndpoint.host, port: serverEndpoint.port) {
                serverHistograms = ServerHistograms(
                    operation: ("parlor_operation_duration_seconds", operationLabel), broadcast: "parlor_broadcast_latency_seconds",
                    atStart: serverAtStartText, atEnd: text)
            }
            run.finish.open(true)
            // Every connection now closes politely; a member still stuck in set-up is cancelled.
            await waitUntilFinished(run.running, atMost: .seconds(30))
            done.open(true)
            group.cancelAll()
        }
        context.loadAverageAtEnd = ProcessStats.loadAverage
        context.interrupted = Interrupt.requested.isOpen
        timing.totalSeconds = (ContinuousClock.now - began).seconds
        var report = RoomsReport(
            context: context, parameters: parameters, run: run, rooms: rooms, window: window, timing: timing,
            server: options.serverPid.map {
                ProcessUsage(
                    pid: String($0), residentBytesAtStart: serverAtStart, residentBytesLoaded: serverLoaded,
                    residentBytesAtEnd: server?.residentBytes, cpuCores: serverCPU)
            },
            generator: ProcessUsage(
                pid: String(getpid()), residentBytesAtStart: generatorAtStart, residentBytesLoaded: generatorLoaded,
                residentBytesAtEnd: ProcessStats.current.residentBytes, cpuCores: generatorCPU,
                eventLoops: options.effectiveEventLoops))
        report.serverSubmitScore = serverHistograms.operationThisRun
        report.serverBroadcast = serverHistograms.broadcastThisRun
        report.serverLifetimeSubmitScore = serverHistograms.operationLifetime
        report.serverLifetimeBroadcast = serverHistograms.broadcastLifetime
        return report
    }

    /// Each second: a timeline entry, and the progress line on stderr (set-up progress, then rates,
    /// p99 so far and in the last second).
    private func progress(_ run: RoomsRun, began: ContinuousClock.Instant, done: Gate<Bool>) async {
        var last = (actions: 0, replies: 0, events: 0)
        await everySecond(from: began, until: done) { elapsed in
            let now = (actions: run.actionsSent.current, replies: run.replies.current, events: run.events.current)
            defer { last = now }
            let errors = run.errors.total + run.failures.total
            let phase: String
            if let start = run.start.value, ContinuousClock.now >= start {
                phase = run.stopSending.isOpen ? "drain" : "run"
            } else {
                phase = "setup"
            }
            let reply = run.replyLatency.takeWindow()
            let fanOut = run.fanOutLatency.takeWindow()
            let entry = TimelineEntry(
                second: Int(elapsed.seconds.rounded()), phase: phase, actions: now.actions - last.actions,
                replies: now.replies - last.replies, events: now.events - last.events, errors: errors,
                connections: run.connectionsOpen.current, replyP99: reply.p99, replyMax: reply.max,
                fanOutP99: fanOut.p99, fanOutMax: fanOut.max, generatorLagMax: run.generatorLag.takeWindow().max)
            run.timeline.withLock { $0.append(entry) }
            let shownPhase =
                phase == "setup"
                ? "setup \(run.roomsReady.current + run.roomsFailed.current)/\(parameters.rooms) \(parameters.game.plural)" : phase
            options.progressTick(
                String(format: "[%4.0fs] ", elapsed.seconds) + shownPhase
                    + "  actions \(entry.actions)/s  replies \(entry.replies)/s  events \(entry.events)/s"
                    + "  p99 reply \(formatMilliseconds(run.replyLatency.milliseconds(atPercentile: 99)))"
                    + " (1 s: \(formatMilliseconds(reply.p99)))"
                    + "  p99 fan-out \(formatMilliseconds(run.fanOutLatency.milliseconds(atPercentile: 99)))"
                    + " (1 s: \(formatMilliseconds(fanOut.p99)))"
                    + "  errors \(errors)  conns \(entry.connections)")
        }
    }
}
