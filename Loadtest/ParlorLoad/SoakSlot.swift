/// One room slot of a soak: room lives one after another until the run stops. The slot's task group
/// serves the connections its lives open, so each connection is a child task that ends when it closes.
struct SoakSlot: Sendable {
    let run: SoakRun
    let index: Int

    /// After a life that failed, the slot waits this long before the next (a server that refuses
    /// everything is not hammered).
    static let backoff: Duration = .seconds(1)

    func run(startingAfter delay: Duration) async {
        run.running.add()
        defer { run.running.subtract() }
        let (links, opener) = AsyncStream<MemberLink>.makeStream()
        await withDiscardingTaskGroup { group in
            group.addTask {
                if delay > .zero { _ = await run.stop.wait(timeout: delay) }
                var random = SplitMix64(seed: run.parameters.seed ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15))
                var number = 0
                while !run.stop.isOpen {
                    var life = SoakLife(run: run, slot: index, number: number, opener: opener, random: &random)
                    let wentAsPlanned = await life.run()
                    if !wentAsPlanned { _ = await run.stop.wait(timeout: Self.backoff) }
                    number += 1
                }
                opener.finish()
            }
            for await link in links {
                group.addTask { await link.serve() }
            }
        }
    }
}
