import Foundation
import ParlorTestSupport
import Testing

/// The host removes a player in the browser client, through the shell's "Remove a player…"
/// (`browser_kick.py`, two headless Chromium browsers on the real `parlor-server`): tic-tac-toe's host
/// removes the other player mid-game; the removed phone is told and goes on watching.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct BrowserKickTests {
    @Test func theHostRemovesAPlayerWhosePhoneIsTold() async throws {
        let screenshots = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-kick-screens-\(UUID().uuidString)").path
        print("Browser kick screenshots: \(screenshots)")
        let server = try await ServerProcess.start(["--no-persist"])
        let (status, output) = try await ScriptRunner.run(
            "python3", "browser_kick.py", arguments: ["http://127.0.0.1:\(server.port)", screenshots], timeout: .seconds(90))
        await server.stop()
        #expect(status == 0, "\(output)")
        #expect(output.contains(#""ok": true"#), "\(output)")
        #expect(output.contains(#""board": ["", "", "", "", "", "", "", "", ""]"#), "\(output)")
    }
}
