import Foundation
import ParlorTestSupport
import Testing

/// The host removes a player in the browser client, through the shell's "Remove a player…"
/// (`browser_kick.py`, headless Chromium browsers on the real `parlor-server`); the removed phone is
/// told and goes on watching: tic-tac-toe's host removes the other player mid-game; a word game's host
/// removes a player, whose lobby stream ends and who watches the lobby by its code; a photo quiz's host
/// removes a player before the start, then rematches the finished quiz, which every phone follows.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct BrowserKickTests {
    @Test func theHostRemovesAPlayerWhosePhoneIsTold() async throws {
        let output = try await Self.run("tictactoe")
        #expect(output.contains(#""board": ["", "", "", "", "", "", "", "", ""]"#), "\(output)")
    }

    @Test func theWordGameHostRemovesAPlayerWhoWatchesOn() async throws {
        let output = try await Self.run("wordgame")
        #expect(output.contains(#""players": ["Ann"]"#), "\(output)")
    }

    @Test func theQuizHostRemovesAPlayerAndRematches() async throws {
        let home = try ScratchDirectory("browser-quiz-kick")
        let photo = home.url.appendingPathComponent("paris.jpg").path
        try Data(try await TestPhotos.make(.at(48.8566, 2.3522))).write(to: URL(fileURLWithPath: photo))
        let output = try await Self.run("quiz", photo)
        #expect(output.contains(#""players": ["Ann", "Bo"]"#), "\(output)")
        #expect(output.contains(#""rematch": ""#), "\(output)")
    }

    /// Runs `browser_kick.py` for `game` against a fresh server; answers what it printed, once it said ok.
    static func run(_ game: String, _ arguments: String...) async throws -> String {
        let screenshots = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-kick-screens-\(UUID().uuidString)").path
        print("Browser kick screenshots (\(game)): \(screenshots)")
        let server = try await ServerProcess.start(["--no-persist"])
        let (status, output) = try await ScriptRunner.run(
            "python3", "browser_kick.py", arguments: ["http://127.0.0.1:\(server.port)", screenshots, game] + arguments,
            timeout: .seconds(90))
        await server.stop()
        #expect(status == 0, "\(output)")
        #expect(output.contains(#""ok": true"#), "\(output)")
        return output
    }
}
