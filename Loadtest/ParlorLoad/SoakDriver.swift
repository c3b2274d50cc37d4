import Foundation

/// Runs a `soak`: starts every room slot (spread over the ramp), samples the server every few seconds,
/// stops starting new room lives when the duration is over, lets the rooms wind down, looks at the
/// server once more after every connection has closed, and gathers the report.
struct SoakDriver {
    let parameters: SoakParameters
    let options: ConnectionOptions

    /// How long after the last connection closed the server is looked at again: long enough for it to
    /// have seen every close (and, after a large drop, to have handed memory back).
    static let afterCloseWait: Duration = .seconds(5)
    /// The longest the rooms may take to wind down after the duration.
    static let windDownLimit: Duration = .seconds(120)

    func run() async -> SoakReport {
        var context = RunContext.now()
        let run = SoakRun(
            parameters: parameters, politeConfigurations: options.clientConfigurations(),
            abruptConfigurations: options.clientConfigurations(closeTimeout: .zero))
        let began = ContinuousClock.now
        let levels = ServerLevels(serverPid: options.serverPid, url: parameters.url, began: began)
        let done = Gate<Bool>()
        var timing = SoakReport.Timing()
        var afterClose: LevelSample?
        let serverCPU = options.serverPid.map { CPUSampler(ProcessStats(pid: $0)) }
        let generatorCPU = CPUSampler(.current)

        await withDiscardingTaskGroup { group in
            group.addTask {
                await levels.run(
                    every: .nanoseconds(Int64(parameters.sampleIntervalSeconds * 1e9)), until: done,
                    generatorConnections: { run.connectionsOpen.current })
            }
            group.addTask { await progress(run, levels: levels, began: began, done: done) }
            // Slots start spread over the ramp, so room lives do not move in step.
            let ramp = min(parameters.warmupSeconds / 2, 10)
            await withDiscardingTaskGroup { slots in
                for index in 0..<parameters.rooms {
                    let delay = Duration.nanoseconds(Int64(ramp * 1e9 * Double(index) / Double(parameters.rooms)))
                    slots.addTask { await SoakSlot(run: run, index: index).run(startingAfter: delay) }
                }
                slots.addTask {
                    await Interrupt.sleep(until: began + .nanoseconds(Int64(parameters.durationSeconds * 1e9)))
                    run.stop.open(true)
                }
                _ = await run.stop.wait()
                timing.measuredSeconds = (ContinuousClock.now - began).seconds
                timing.serverCPUCores = serverCPU?.coresUsed
                timing.generatorCPUCores = generatorCPU.coresUsed
                // Rooms wind down (each is left at its next round); past the limit the rest are cancelled.
                await waitUntilFinished(run.running, atMost: Self.windDownLimit)
                slots.cancelAll()
            }
            timing.windDownSeconds = (ContinuousClock.now - began).seconds - timing.measuredSeconds
            try? await Task.sleep(for: Self.afterCloseWait)
            afterClose = await levels.sample(generatorConnections: run.connectionsOpen.current)
            done.open(true)
        }
        context.loadAverageAtEnd = ProcessStats.loadAverage
        context.interrupted = Interrupt.requested.isOpen
        timing.totalSeconds = (ContinuousClock.now - began).seconds
        return SoakReport(
            context: context, parameters: parameters, run: run, timing: timing, samples: levels.samples, afterClose: afterClose,
            serverPid: options.serverPid)
    }

    /// Each second: lives so far, connections, request and event rates, drops, errors, the server's RSS.
    private func progress(_ run: SoakRun, levels: ServerLevels, began: ContinuousClock.Instant, done: Gate<Bool>) async {
        guard !options.quiet else { return }
        var last = (requests: 0, events: 0)
        await everySecond(from: began, until: done) { elapsed in
            let now = (requests: run.requests.current, events: run.events.current)
            defer { last = now }
            let fates = run.fates.snapshot
            let phase = run.stop.isOpen ? (run.running.current > 0 ? "wind-down" : "after") : elapsed.seconds < parameters.warmupSeconds ? "warm-up" : "soak"
            let latest = levels.samples.last
            options.progressTick(
                String(format: "[%4.0fs] ", elapsed.seconds) + phase
                    + "  lives \(run.livesStarted.current) (finished \(fates[SoakFate.finished.rawValue] ?? 0), left \(fates[SoakFate.left.rawValue] ?? 0), "
                    + "disconnected \(fates[SoakFate.disconnected.rawValue] ?? 0), failed \(run.livesFailed.current))"
                    + "  conns \(run.connectionsOpen.current)  requests \(now.requests - last.requests)/s  events \(now.events - last.events)/s"
                    + "  drops \(run.drops.current)  errors \(run.errors.total)"
                    + "  server RSS \(formatBytes(latest?.residentBytes)) fds \(latest?.openFiles.map(String.init) ?? "-")")
        }
    }
}
