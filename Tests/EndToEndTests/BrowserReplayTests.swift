import Foundation
import ParlorTestSupport
import Testing

/// The browser's replay page (`/replay/CODE`) for a word match played over the wire, in headless
/// Chromium (`browser_replay.py`): a viewer who did not play steps through it and sees each step as the
/// record says, no word before the round's reveal (neither on the page nor in what reached it), both at
/// it, and ×4 playing on to the end; a player finds the match in "Your games", follows its replay link
/// and sees their own word during the round, not the other player's; a code with no record says so; a
/// tic-tac-toe game, another kind on the same page, shows each step's board as its record has it; a
/// photo quiz's place is neither on the page nor in what reached it before the reveal's step.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct BrowserReplayTests {
    @Test func aWordMatchIsReplayedStepByStepAsEachViewerSawIt() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-replay-data-\(UUID().uuidString)").path
        let catalogFile = data + "-catalog.json"
        try ShortRoundCatalog.json(timeLimit: 10).write(toFile: catalogFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: catalogFile) }
        let importer = try ChildProcess("parlor-server", ["catalog", "import", catalogFile, "--data-dir", data])
        let imported = await importer.waitForExit(timeout: .seconds(60))
        #expect(imported == 0, "\(importer.standardError)")

        let home = try ScratchDirectory("browser-replay")
        defer { home.remove() }
        let photo = home.url.appendingPathComponent("paris.jpg").path
        try Data(try await TestPhotos.make(.at(48.8566, 2.3522, taken: "2024:06:14 09:30:00"))).write(to: URL(fileURLWithPath: photo))
        let screenshots = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-replay-screens-\(UUID().uuidString)").path
        print("Browser replay screenshots: \(screenshots)")
        let server = try await ServerProcess.start([], dataDirectory: data)
        let (status, output) = try await ScriptRunner.run(
            "python3", "browser_replay.py", arguments: ["http://127.0.0.1:\(server.port)", screenshots, photo], timeout: .seconds(150))
        await server.stop()
        try? FileManager.default.removeItem(atPath: data)
        #expect(status == 0, "\(output)")
        #expect(output.contains(#""ok": true"#), "\(output)")
        print(output)
    }
}
