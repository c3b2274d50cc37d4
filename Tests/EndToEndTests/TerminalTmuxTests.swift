import Foundation
import Testing

/// The interactive view, driven for real: `Scripts/terminal-tmux.sh` runs two `parlor` terminals in tmux
/// against the server and checks, from what tmux captures of their screens, that each sees the other's
/// ready toggles live and the other going away and coming back (the presence dots), that a resize
/// redraws, and that quitting (q or Ctrl-C) restores the terminal.
@Suite("parlor in tmux", .serialized, .timeLimit(.minutes(3)))
struct TerminalTmuxTests {
    @Test("Two terminals in one room see each other's ready toggles live")
    func twoTerminals() async throws {
        let script = try #require(
            Bundle.module.url(forResource: "terminal-tmux", withExtension: "sh", subdirectory: "Scripts"),
            "the script is not among the test resources")
        let process = try ChildProcess(
            executable: "/bin/bash", [script.path, BuiltProducts.directory.path], name: "terminal-tmux.sh")
        process.closeInput()
        let status = await process.waitForExit(timeout: .seconds(150))
        await process.stop()
        let output = process.standardOutput + process.standardError
        #expect(status == 0, "terminal-tmux.sh failed (\(status.map(String.init) ?? "timed out")):\n\(output)")
        #expect(output.contains("terminal-tmux.sh: ok"))
    }
}
