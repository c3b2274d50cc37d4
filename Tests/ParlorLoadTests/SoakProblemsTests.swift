import Testing
@testable import ParlorLoad

/// The soak's verdict: a server whose memory, descriptors or threads drift from where they settled, a
/// gauge left above zero after everyone has gone, or any broken rooms invariant fails the run — and a
/// server that stayed level passes.
@Suite struct SoakProblemsTests {
    private static let mib = 1_048_576

    private static func parameters(tolerance: Double = 5) -> SoakParameters {
        SoakParameters(
            url: "ws://127.0.0.1:1/ws", rooms: 4, players: 3, spectators: 1, intervalSeconds: 1, durationSeconds: 120,
            warmupSeconds: 30, windowSeconds: 30, sampleIntervalSeconds: 5, tolerancePercent: tolerance, dropChance: 0.3,
            unsubscribeChance: 0.3, abandonShare: 0.5, requestTimeoutSeconds: 30, sourceAddresses: 1, compress: false, seed: 1)
    }

    /// A sample every 5 s over 120 s: the server holds `settled` until 90 s and `end` from then on (the
    /// settled window is 30–60 s, the end window 90–120 s).
    private static func samples(
        memory: (settled: Int, end: Int) = (100 * mib, 100 * mib), descriptors: (settled: Int, end: Int) = (40, 40),
        threads: (settled: Int, end: Int) = (8, 8)
    ) -> [LevelSample] {
        stride(from: 0, through: 120, by: 5).map { second in
            let late = second >= 90
            return LevelSample(
                second: Double(second), residentBytes: late ? memory.end : memory.settled,
                openFiles: late ? descriptors.end : descriptors.settled, threads: late ? threads.end : threads.settled,
                gauges: ["parlor_connections": 16], generatorConnections: 16)
        }
    }

    private static let clean = SoakReport.Counts(
        livesStarted: 40, livesFailed: 0, fates: ["finished": 20, "left": 10, "disconnected": 10], connectionsOpened: 200,
        requests: 2_000, replies: 2_000, events: 8_000, drops: 12, resumes: 12, notResumed: 0, unsubscribes: 9,
        resubscribes: 9, roomsDeleted: 30)

    private static let emptied = LevelSample(
        second: 130, residentBytes: 90 * mib, openFiles: 12, threads: 8,
        gauges: ["parlor_connections": 0, "parlor_subscriptions": 0, "parlor_connected_users": 0], generatorConnections: 0)

    private static func problems(
        _ samples: [LevelSample], counts: SoakReport.Counts = clean, errors: [String: Int] = [:], checks: SoakChecks = SoakChecks(),
        afterClose: LevelSample? = emptied, measuredSeconds: Double = 120, interrupted: Bool = false
    ) -> [String] {
        let parameters = parameters()
        let levels = SoakReport.Levels(samples: samples, parameters: parameters, measuredSeconds: measuredSeconds, afterClose: afterClose)
        return SoakReport.problems(
            counts: counts, errorsByCode: errors, lifeFailures: [:], checks: checks, levels: levels,
            tolerancePercent: parameters.tolerancePercent, serverSampled: true, interrupted: interrupted)
    }

    @Test func aServerThatStayedLevelPasses() {
        // 4 % more memory at the end: within the 5 % a soak allows.
        #expect(Self.problems(Self.samples(memory: (100 * Self.mib, 104 * Self.mib))) == [])
    }

    @Test func memoryTenPercentAboveWhereItSettledFails() {
        let problems = Self.problems(Self.samples(memory: (100 * Self.mib, 110 * Self.mib)))
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("resident memory (bytes) moved +10.0% from where it settled") == true, "\(problems)")
    }

    @Test func descriptorsOrThreadsThatGrewFail() {
        let descriptors = Self.problems(Self.samples(descriptors: (40, 44)))
        #expect(descriptors.count == 1 && descriptors.first?.hasPrefix("open descriptors moved +10.0%") == true, "\(descriptors)")
        let threads = Self.problems(Self.samples(threads: (8, 10)))
        #expect(threads.count == 1 && threads.first?.hasPrefix("threads moved +25.0%") == true, "\(threads)")
    }

    @Test func oneSampleTakenInABurstDoesNotMoveALevel() {
        var samples = Self.samples()
        // One look in the middle of the settled window caught the server at twice its memory.
        if let index = samples.firstIndex(where: { $0.second == 45 }) { samples[index].residentBytes = 200 * Self.mib }
        #expect(Self.problems(samples) == [])
        // Four of the seven are the level: the settled memory is 200 MiB, and the end is half of it.
        for second in [35.0, 40, 50] {
            if let index = samples.firstIndex(where: { $0.second == second }) { samples[index].residentBytes = 200 * Self.mib }
        }
        #expect(Self.problems(samples).count == 1)
    }

    @Test func gaugesLeftAboveZeroAfterEveryConnectionClosedFail() {
        var after = Self.emptied
        after.gauges["parlor_subscriptions"] = 3
        after.gauges["parlor_connected_users"] = 1
        #expect(
            Self.problems(Self.samples(), afterClose: after) == [
                "parlor_subscriptions is 3 after every connection closed", "parlor_connected_users is 1 after every connection closed",
            ])
    }

    @Test func everyBrokenRoomsInvariantFailsTheRun() {
        let invariants: [(WritableKeyPath<SoakChecks, Int>, String)] = [
            (\.membersBehind, "members did not receive their room's final version"),
            (\.nonIncreasingEvents, "room events did not increase the version"),
            (\.incompleteVersions, "versions never reached every member"),
            (\.droppedVersions, "versions were dropped from tracking"),
            (\.deletionsMissed, "observers did not see their room deleted"),
            (\.endsAfterReply, "unsubscribe replies came before their stream's end"),
        ]
        for (field, message) in invariants {
            var checks = SoakChecks()
            checks[keyPath: field] = 2
            #expect(Self.problems(Self.samples(), checks: checks) == ["2 \(message)"])
        }
    }

    @Test func errorsFailedLivesAndUsersNotResumedFail() {
        #expect(Self.problems(Self.samples(), errors: ["ROOM_NOT_FOUND": 1]) == ["1 errors (1 × ROOM_NOT_FOUND)"])
        var counts = Self.clean
        counts.notResumed = 1
        #expect(Self.problems(Self.samples(), counts: counts) == ["1 reconnections with a token did not resume their user"])
        counts = Self.clean
        counts.livesStarted = 0
        #expect(Self.problems(Self.samples(), counts: counts) == ["no room life started"])
    }

    @Test func aRunThatRanItsCourseMustHaveComparedItsLevels() {
        // The server was read only during the warm-up: nothing to compare, which is a failure…
        let early = Self.samples().filter { $0.second < 30 }
        #expect(Self.problems(early) == ["the server's levels could not be compared (no samples after the warm-up or at the end)"])
        // …unless the run was stopped early by Ctrl-C.
        #expect(Self.problems(early, interrupted: true) == [])
    }
}
