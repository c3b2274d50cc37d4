import Foundation
import Testing

/// `parlor-load` against the real server on port 0 (in memory, `--no-persist`), small and short: it must
/// report no error, and every member must have received every version. Never a timing.
@Suite(.serialized) struct LoadSmokeTests {
    private struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the built `parlor-load` and waits for it to exit (it stops by itself; 60 s at most).
    private func run(_ arguments: [String]) async throws -> Outcome {
        let process = try ChildProcess("parlor-load", arguments)
        guard let status = await process.waitForExit(timeout: .seconds(60)) else {
            await process.stop()
            throw ProcessTestError("parlor-load did not finish in 60 s:\n\(process.standardOutput)\n\(process.standardError)")
        }
        return Outcome(status: status, stdout: process.standardOutput, stderr: process.standardError)
    }

    /// Runs `parlor-load` with `--json` to a temporary file; returns its exit status, output and report.
    private func load(_ arguments: [String]) async throws -> (result: Outcome, report: [String: Any]) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-load-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await run(arguments + ["--json", path, "--quiet"])
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (result, report)
    }

    @Test func roomsRunDeliversEveryVersionToEveryMember() async throws {
        let server = try await ServerProcess.start(["--no-persist"])
        let (result, report) = try await load([
            "rooms", "--server", server.url, "--rooms", "3", "--players", "4", "--spectators", "1",
            "--interval", "0.5", "--duration", "3", "--setup-timeout", "20", "--seed", "7",
        ])
        await server.stop()
        #expect(result.status == 0, "stdout:\n\(result.stdout)\nstderr:\n\(result.stderr)")
        #expect((report["errorsByCode"] as? [String: Int])?.isEmpty == true)
        #expect((report["connectionFailures"] as? [String: Int])?.isEmpty == true)
        #expect((report["problems"] as? [String])?.isEmpty == true)

        let counts = try #require(report["counts"] as? [String: Int])
        #expect(counts["roomsReady"] == 3)
        #expect(counts["roomsFailed"] == 0)
        #expect(counts["lostMembers"] == 0)
        let sent = try #require(counts["actionsSent"])
        #expect(sent > 0)
        #expect(counts["replies"] == sent)
        #expect(counts["errorReplies"] == 0)
        #expect(counts["missingReplies"] == 0)

        let rooms = try #require(report["rooms"] as? [[String: Any]])
        #expect(rooms.count == 3)
        var versionsAdded = 0
        for room in rooms {
            let finalVersion = try #require(room["finalVersion"] as? Int)
            let startVersion = try #require(room["startVersion"] as? Int)
            let lastSeen = try #require(room["lastSeen"] as? [Int])
            #expect(lastSeen.count == 5, "4 players and 1 spectator")
            #expect(lastSeen.allSatisfy { $0 == finalVersion }, "every member ends on the room's final version: \(room)")
            #expect(room["nonIncreasing"] as? Int == 0, "versions only go up for each member: \(room)")
            #expect(room["incomplete"] as? Int == 0)
            #expect(room["lost"] as? Int == 0)
            #expect(finalVersion > startVersion)
            versionsAdded += finalVersion - startVersion
        }
        // Every submission changed its room: one new version each, none lost, none extra.
        #expect(versionsAdded == sent)
        let fanOut = try #require((report["latency"] as? [String: Any])?["fanOut"] as? [String: Any])
        #expect(fanOut["count"] as? Int == sent, "one fan-out measurement per submission")
        // By default the generator takes half the machine's cores for its event loops, at least one.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect((report["generator"] as? [String: Any])?["eventLoops"] as? Int == max(1, cores / 2))
    }

    @Test func dartsRunDeliversEveryVisitToEveryPlayerAndSpectator() async throws {
        let server = try await ServerProcess.start(["--no-persist"])
        let (result, report) = try await load([
            "darts", "--server", server.url, "--matches", "3", "--players", "3", "--spectators", "2",
            "--interval", "0.6", "--duration", "3", "--setup-timeout", "20", "--seed", "7", "--event-loops", "3",
        ])
        await server.stop()
        #expect(result.status == 0, "stdout:\n\(result.stdout)\nstderr:\n\(result.stderr)")
        #expect(report["scenario"] as? String == "darts")
        #expect((report["problems"] as? [String])?.isEmpty == true)
        #expect((report["errorsByCode"] as? [String: Int])?.isEmpty == true, "no visit out of turn, none refused")
        let counts = try #require(report["counts"] as? [String: Int])
        #expect(counts["roomsReady"] == 3 && counts["roomsFailed"] == 0 && counts["lostMembers"] == 0)
        let sent = try #require(counts["actionsSent"])
        // A match throws every 0.2 s: about 15 visits each in 3 s, so legs were won (every 13th visit).
        #expect(sent > 3 * 13)
        #expect(counts["replies"] == sent && counts["errorReplies"] == 0 && counts["missingReplies"] == 0)
        let matches = try #require(report["rooms"] as? [[String: Any]])
        var versionsAdded = 0
        for match in matches {
            let finalVersion = try #require(match["finalVersion"] as? Int)
            let lastSeen = try #require(match["lastSeen"] as? [Int])
            #expect(lastSeen.count == 5 && lastSeen.allSatisfy { $0 == finalVersion }, "every member ends on the final version: \(match)")
            #expect(match["nonIncreasing"] as? Int == 0 && match["incomplete"] as? Int == 0)
            versionsAdded += finalVersion - (match["startVersion"] as? Int ?? 0)
        }
        #expect(versionsAdded == sent, "every visit is one new version")
        // The server's own recordVisit histogram, under its own name.
        #expect(report["serverRecordVisit"] != nil && report["serverSubmitScore"] == nil)
        // Its connections ran on the event loops it was given (the rooms run above: the default).
        #expect((report["generator"] as? [String: Any])?["eventLoops"] as? Int == 3)
        #expect(result.stdout.contains("on 3 event loops"), "stdout:\n\(result.stdout)")
    }

    @Test func connectStormResumesEveryConnection() async throws {
        let server = try await ServerProcess.start(["--no-persist"])
        let (result, report) = try await load(["connect", "--server", server.url, "--connections", "20", "--hold", "0.2"])
        await server.stop()
        #expect(result.status == 0, "stdout:\n\(result.stdout)\nstderr:\n\(result.stderr)")
        let first = try #require(report["firstWave"] as? [String: Any])
        let storm = try #require(report["storm"] as? [String: Any])
        #expect(first["connected"] as? Int == 20)
        #expect(first["failed"] as? Int == 0)
        #expect(storm["connected"] as? Int == 20)
        #expect(storm["failed"] as? Int == 0)
        #expect(report["resumed"] as? Int == 20)
        #expect(report["notResumed"] as? Int == 0)
    }

    /// A short soak: rooms are created, played, finished and abandoned, members drop and resume,
    /// spectators unsubscribe and observe again — every rooms invariant holds, and the server's gauges
    /// are back at zero once the generator has gone.
    @Test func soakChurnsRoomsAndKeepsEveryInvariant() async throws {
        // Abandoned rooms expire after 18 s, as a long soak needs them to.
        let server = try await ServerProcess.start(["--room-expiry-hours", "0.005"])
        let pages = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-soak-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: pages) }
        let (result, report) = try await load([
            "soak", "--report", pages, "--server", server.url, "--server-pid", "\(server.process.pid)", "--rooms", "4", "--players", "3",
            "--spectators", "1", "--interval", "0.05", "--duration", "20", "--warmup", "6", "--window", "6",
            "--sample-interval", "1", "--drop-chance", "0.5", "--unsubscribe-chance", "0.5", "--seed", "11",
            // Four rooms hold about 16 connections: one room between lives moves the descriptors by a tenth.
            // The 5 % the soak holds a long run to needs a load that is steady in aggregate.
            "--tolerance", "25",
        ])
        await server.stop()
        #expect(result.status == 0, "stdout:\n\(result.stdout)\nstderr:\n\(result.stderr)")
        #expect((report["problems"] as? [String])?.isEmpty == true)
        #expect((report["errorsByCode"] as? [String: Int])?.isEmpty == true)
        #expect((report["lifeFailures"] as? [String: Int])?.isEmpty == true)

        let counts = try #require(report["counts"] as? [String: Any])
        let fates = try #require(counts["fates"] as? [String: Int])
        for fate in ["finished", "left", "disconnected"] {
            #expect((fates[fate] ?? 0) > 0, "some room lives ended \(fate): \(fates)")
        }
        let drops = try #require(counts["drops"] as? Int)
        #expect(drops > 0)
        #expect(counts["resumes"] as? Int == drops, "every dropped member came back")
        #expect(counts["notResumed"] as? Int == 0)
        let unsubscribes = try #require(counts["unsubscribes"] as? Int)
        #expect(unsubscribes > 0 && counts["resubscribes"] as? Int == unsubscribes)
        #expect(counts["requests"] as? Int == counts["replies"] as? Int)

        let checks = try #require(report["checks"] as? [String: Int])
        #expect((checks["roomsChecked"] ?? 0) > 0)
        for name in ["membersBehind", "nonIncreasingEvents", "incompleteVersions", "droppedVersions", "deletionsMissed", "endsAfterReply"] {
            #expect(checks[name] == 0, "\(name): \(checks)")
        }

        let levels = try #require(report["levels"] as? [String: Any])
        let comparisons = try #require(levels["comparisons"] as? [[String: Any]])
        #expect(comparisons.count == 3, "memory, descriptors and threads were compared: \(levels)")
        let afterClose = try #require((levels["afterClose"] as? [String: Any])?["gauges"] as? [String: Double])
        #expect(afterClose["parlor_connections"] == 0)
        #expect(afterClose["parlor_subscriptions"] == 0)
        #expect(afterClose["parlor_connected_users"] == 0)

        // --report draws the levels the soak judges, over the run.
        let page = try String(contentsOfFile: pages + "/report.html", encoding: .utf8)
        #expect(page.components(separatedBy: "<svg").count - 1 == 2, "memory, and descriptors, threads and connections")
        #expect(page.contains("Server resident memory") && page.contains("<polyline"))
    }

    @Test func refusesBeforeStartingWhenTheOpenFileLimitIsTooLow() async throws {
        // Two million connections exceed any open-file limit Linux allows (fs.nr_open is 1,048,576 by
        // default); the generator must say so and stop before connecting anywhere.
        let result = try await run([
            "rooms", "--server", "ws://127.0.0.1:9/ws", "--rooms", "200000", "--players", "10", "--source-addresses", "200",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("open files"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("ulimit -n"), "stderr: \(result.stderr)")
    }

    @Test func refusesAnEventLoopCountOutsideItsRange() async throws {
        for count in ["0", "257"] {
            let result = try await run(["rooms", "--server", "ws://127.0.0.1:9/ws", "--event-loops", count])
            #expect(result.status == 64, "--event-loops \(count): stderr: \(result.stderr)")
            #expect(result.stderr.contains("--event-loops must be between 1 and 256 (got \(count))"), "stderr: \(result.stderr)")
        }
    }
}
