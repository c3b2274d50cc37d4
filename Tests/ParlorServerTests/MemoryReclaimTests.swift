import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// The server gives the memory that closed connections freed back to the system once a wave of them
/// has gone — and never while connections merely come and go.
@Suite struct MemoryReclaimTests {
    private static func policy(minimumDrop: Int = 100, dropFraction: Double = 0.5, spacing: TimeAmount = .seconds(10)) -> MemoryTrimPolicy {
        var configuration = ServerConfiguration.MemoryReclaim()
        configuration.minimumDrop = minimumDrop
        configuration.dropFraction = dropFraction
        configuration.minimumSpacing = spacing
        return MemoryTrimPolicy(configuration)
    }

    /// Feeds `counts` one second apart from `start`; returns the seconds at which the policy trimmed.
    private static func trims(_ policy: inout MemoryTrimPolicy, _ counts: [Int], from start: NIODeadline = .uptimeNanoseconds(0)) -> [Int] {
        counts.indices.filter { policy.observe(connections: counts[$0], at: start + .seconds(Int64($0))) }
    }

    @Test func steadyChurnNeverTrims() {
        var policy = Self.policy()
        // Connections come and go around 1,000: never half of them at once.
        #expect(Self.trims(&policy, [0, 400, 1000, 900, 1050, 700, 980, 1000, 600, 1000]) == [])
    }

    @Test func aWaveThatClosedTrimsOnceItHasStoppedFalling() {
        var policy = Self.policy()
        // 1,000 held, then they close over three seconds: the trim waits until the count stops falling.
        #expect(Self.trims(&policy, [1000, 1000, 600, 200, 0, 0, 0]) == [5])
        #expect(policy.peak == 0)
    }

    @Test func aDropMustBeLargeInNumberAndShare() {
        var few = Self.policy(minimumDrop: 100)
        #expect(Self.trims(&few, [150, 150, 60, 60]) == [], "90 connections gone: under the minimum")
        var share = Self.policy(minimumDrop: 100, dropFraction: 0.5)
        #expect(Self.trims(&share, [1000, 1000, 700, 700]) == [], "300 gone, but not half")
        #expect(Self.trims(&share, [400, 400]) == [1], "600 of 1,000 gone, and no longer falling")
    }

    @Test func aSecondTrimNeedsANewWaveAndTheSpacing() {
        var policy = Self.policy(minimumDrop: 100, spacing: .seconds(10))
        #expect(Self.trims(&policy, [1000, 0, 0]) == [2])
        // Nothing new came: no second trim however long it stays empty.
        #expect(Self.trims(&policy, Array(repeating: 0, count: 20), from: .uptimeNanoseconds(0) + .seconds(3)) == [])
        // A new wave two seconds after the trim: its close waits for the spacing to pass.
        var next = Self.policy(minimumDrop: 100, spacing: .seconds(10))
        #expect(Self.trims(&next, [1000, 0, 0, 800, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]) == [2, 12])
    }

    @Test func theThresholdsAreInclusive() {
        // Exactly the minimum number and exactly the share: the drop is large enough.
        var exact = Self.policy(minimumDrop: 100, dropFraction: 0.5)
        #expect(Self.trims(&exact, [200, 100, 100]) == [2])
        // One connection short of either is not.
        var short = Self.policy(minimumDrop: 100, dropFraction: 0.5)
        #expect(Self.trims(&short, [200, 101, 101]) == [])
        // Trimmed at 2; the next wave has closed by 5 (3 s later, too soon) and trims at 6, exactly the
        // spacing after the first.
        var spaced = Self.policy(minimumDrop: 100, spacing: .seconds(4))
        #expect(Self.trims(&spaced, [1000, 0, 0, 1000, 0, 0, 0]) == [2, 6])
    }

    @Test func connectionsThatCameBackBeforeATrimPostponeIt() {
        var policy = Self.policy(minimumDrop: 100)
        // 1,000 close and as many arrive at once (they reuse what the first freed: nothing to give back);
        // once those have closed too and the count is flat, one trim.
        #expect(Self.trims(&policy, [1000, 0, 1000, 1000, 0, 0]) == [5])
    }

    @Test func aWaveArrivingAgainIsNotInterrupted() {
        var storm = Self.policy(minimumDrop: 100)
        // 1,000 dropped at once and reconnect as fast as they can: no trim while they pour back in, and
        // none once they are back (what the first wave freed is in use again).
        #expect(Self.trims(&storm, [1000, 1000, 0, 400, 800, 1000, 1000]) == [])
        // Only 300 came back and stayed: the count holds still again, and what the other 700 freed goes.
        var partly = Self.policy(minimumDrop: 100)
        #expect(Self.trims(&partly, [1000, 1000, 0, 300, 300]) == [4])
        // Steady churn after a wave (a few connections a second, well under a twentieth of the drop) is still.
        var churning = Self.policy(minimumDrop: 100)
        #expect(Self.trims(&churning, [1000, 1000, 100, 104, 101]) == [3])
    }

    @Test func aTrimCountsItselfAndTheMemoryItGaveBack() throws {
        let metrics = ServerMetrics()
        let reclaimer = MemoryReclaimer(
            configuration: ServerConfiguration.MemoryReclaim(), metrics: metrics, logger: Logger(label: "parlor.test"),
            connections: { 0 })
        #expect(Self.counter("parlor_memory_trims_total", metrics) == 0)
        // 48 MiB of small blocks, written so their pages are resident, then freed but the last: glibc keeps
        // the freed pages (the block above them holds the heap's top) until a trim hands them back.
        let blocks = (0..<12_288).compactMap { _ -> UnsafeMutableRawPointer? in
            let block = malloc(4096)
            block?.initializeMemory(as: UInt8.self, repeating: 1, count: 4096)
            return block
        }
        try #require(blocks.count == 12_288)
        for block in blocks.dropLast() { free(block) }
        defer { free(blocks.last) }
        let first = reclaimer.trim()
        let second = reclaimer.trim()
        #expect(first.bytes >= 16 * 1_048_576, "most of the 48 MiB freed went back to the system: \(first.bytes) bytes")
        #expect(first.residentAfter > 0)
        #expect(Self.counter("parlor_memory_trims_total", metrics) == 2)
        #expect(Self.counter("parlor_memory_returned_bytes_total", metrics) == Double(first.bytes + second.bytes))
    }

    @Test(.timeLimit(.minutes(1))) func aDisabledReclaimerNeverLooks() async {
        var configuration = ServerConfiguration.MemoryReclaim()
        configuration.enabled = false
        configuration.checkInterval = .milliseconds(1)
        let looked = NIOLockedValueBox(0)
        let reclaimer = MemoryReclaimer(
            configuration: configuration, metrics: ServerMetrics(), logger: Logger(label: "parlor.test"),
            connections: {
                looked.withLockedValue { $0 += 1 }
                return 0
            })
        // Returns at once (an enabled one runs until cancelled) without counting anything.
        await reclaimer.run()
        #expect(looked.withLockedValue { $0 } == 0)
    }

    /// The value of an unlabelled metric in `metrics`' exposition; nil when it is not there.
    static func counter(_ name: String, _ metrics: ServerMetrics) -> Double? {
        let text = String(decoding: metrics.exposition(), as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1))
        }
        return nil
    }

    /// Over the wire: a server told to trim after 3 closed connections does so once they close, and its
    /// gauges come back to zero — nothing is left behind per connection.
    @Test func closingAWaveOfConnectionsTrimsTheHeapAndEmptiesTheGauges() async throws {
        try await withParlor(configure: {
            $0.memory.checkInterval = .milliseconds(20)
            $0.memory.minimumDrop = 3
            $0.memory.minimumSpacing = .zero
        }) { parlor in
            #expect(try await Self.metric("parlor_memory_trims_total", parlor) == 0)
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    try await parlor.connect(token: bo.token) { boAgain in
                        try await parlor.connect(signIn: false) { spectator in
                            let code = try await RoomFlowTests.seat(ann, [bo])
                            for client in [ann, bo, boAgain, spectator] {
                                #expect(try await client.call("observeRoom", ["code": code]).result != nil)
                            }
                            #expect(try await Self.metric("parlor_connections", parlor) == 4)
                            #expect(try await Self.metric("parlor_subscriptions", parlor) == 4)
                            #expect(try await Self.metric("parlor_connected_users", parlor) == 2, "Bo's two connections are one user")
                        }
                    }
                }
            }
            // Each look at /metrics is a connection the reclaimer counts too, and it trims only once the
            // count holds still: look seldom enough for it to see several quiet checks in between.
            #expect(
                await eventually(timeout: .seconds(20)) {
                    try? await Task.sleep(for: .milliseconds(200))
                    return (try? await Self.metric("parlor_memory_trims_total", parlor)) == 1
                })
            #expect(try await Self.metric("parlor_connections", parlor) == 0)
            #expect(try await Self.metric("parlor_subscriptions", parlor) == 0)
            #expect(try await Self.metric("parlor_connected_users", parlor) == 0)
            #expect(try await Self.metric("parlor_memory_returned_bytes_total", parlor) != nil)
        }
    }

    @Test func anOperatorCanTurnItOff() async throws {
        try await withParlor(configure: {
            $0.memory.enabled = false
            $0.memory.checkInterval = .milliseconds(20)
            $0.memory.minimumDrop = 1
            $0.memory.minimumSpacing = .zero
        }) { parlor in
            for _ in 0..<3 { try await parlor.connect { _ in } }
            try await Task.sleep(for: .milliseconds(200))
            #expect(try await Self.metric("parlor_memory_trims_total", parlor) == 0)
        }
    }

    /// The value of an unlabelled metric on `/metrics`; nil when it is not there.
    static func metric(_ name: String, _ parlor: ParlorHarness) async throws -> Double? {
        let (_, body) = try await parlor.http("GET", "/metrics")
        let text = try #require(body as? String)
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1))
        }
        return nil
    }
}
