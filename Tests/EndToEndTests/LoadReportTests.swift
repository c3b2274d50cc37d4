import Foundation
import Testing

/// `parlor-load` as an operator runs it against the real server: `--server` or `PARLOR_SERVER` (the old
/// `--url` still works), `--report DIR` writes the JSON and a self-contained page with its charts, the
/// server's figures are told apart for the run and for the server's life, and the rooms it made are
/// gone when it ends.
@Suite(.serialized) struct LoadReportTests {
    private func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32, output: String) {
        let process = try ChildProcess("parlor-load", arguments, environment: environment)
        guard let status = await process.waitForExit(timeout: .seconds(60)) else {
            await process.stop()
            throw ProcessTestError("parlor-load did not finish in 60 s:\n\(process.standardOutput)\n\(process.standardError)")
        }
        return (status, process.standardOutput + process.standardError)
    }

    private func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("parlor-load-report-\(UUID().uuidString)").path
    }

    private func metric(_ name: String, on server: ServerProcess) async throws -> Double? {
        let (_, _, body) = try await curl(["http://127.0.0.1:\(server.port)/metrics"])
        return body.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
    }

    @Test func aReportDirectoryHoldsTheJSONAndAPageWithItsCharts() async throws {
        try await ServerProcess.with(["--no-persist"]) { server in
            let arguments = ["rooms", "--rooms", "2", "--players", "3", "--interval", "0.5", "--duration", "2", "--seed", "3", "--quiet"]
            // A first run, so the server has a life before the measured one.
            let first = try await run(arguments + ["--server", server.url])
            #expect(first.status == 0, "\(first.output)")

            let directory = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let second = try await run(arguments + ["--report", directory], environment: ["PARLOR_SERVER": server.url])
            #expect(second.status == 0, "\(second.output)")

            let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/report.json"))
            let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(report["passed"] as? Bool == true)
            let sent = try #require((report["counts"] as? [String: Any])?["actionsSent"] as? Int)
            let thisRun = try #require(report["serverSubmitScore"] as? [String: Any])
            let lifetime = try #require(report["serverLifetimeSubmitScore"] as? [String: Any])
            // The server handled each of this run's submissions once; its life holds the first run's too.
            #expect(thisRun["count"] as? Int == sent)
            #expect((lifetime["count"] as? Int ?? 0) > sent)
            #expect(report["serverLifetimeBroadcast"] != nil && report["serverBroadcast"] != nil)
            let percentiles = try #require(report["percentiles"] as? [String: Any])
            #expect((percentiles["reply"] as? [[String: Any]])?.count == 13)

            let page = try String(contentsOfFile: directory + "/report.html", encoding: .utf8)
            #expect(page.hasPrefix("<!DOCTYPE html>"))
            #expect(page.components(separatedBy: "<svg").count - 1 == 3, "latency and rates over time, latency by percentile")
            #expect(page.contains("<polyline"))
            #expect(page.contains("PASSED"))
            #expect(!page.contains("<script") && !page.contains("src=") && !page.contains("href="))

            // Every player left at the end: the last one out took each room with it.
            var rooms = try await metric("parlor_rooms", on: server)
            for _ in 0..<50 where rooms != 0 {
                try await Task.sleep(for: .milliseconds(100))
                rooms = try await metric("parlor_rooms", on: server)
            }
            #expect(rooms == 0)
        }
    }

    @Test func idleAndThroughputRunsLeaveNoRoomsBehind() async throws {
        try await ServerProcess.with(["--no-persist", "--rate-limit", "100000", "--exempt-address", "127.0.0.0/8"]) { server in
            let idle = try await run(["idle", "--server", server.url, "--connections", "6", "--per-room", "3", "--duration", "1", "--quiet"])
            #expect(idle.status == 0, "\(idle.output)")
            #expect(try await metric("parlor_rooms", on: server) == 0)
            let throughput = try await run(["throughput", "--server", server.url, "--rooms", "2", "--seconds", "1"])
            #expect(throughput.status == 0, "\(throughput.output)")
            #expect(try await metric("parlor_rooms", on: server) == 0)
        }
    }

    @Test func theOldURLFlagStillWorksButNotBesideServer() async throws {
        try await ServerProcess.with(["--no-persist"]) { server in
            let old = try await run(["connect", "--url", server.url, "--connections", "3", "--quiet"])
            #expect(old.status == 0, "\(old.output)")
            let both = try await run(["connect", "--url", server.url, "--server", server.url, "--connections", "3"])
            #expect(both.status != 0)
            #expect(both.output.contains("--url is the old name of --server"))
            // The old name stays out of the help; the new one and its environment variable are in it.
            let help = try await run(["rooms", "--help"])
            #expect(help.output.contains("--server <url>") && help.output.contains("PARLOR_SERVER"))
            #expect(!help.output.contains("--url"))
        }
    }
}
