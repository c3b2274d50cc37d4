import Foundation
import Testing

/// A tmux server of its own (`-L socket`), driven through its command line.
struct Tmux {
    let socket = "parlor-lobby-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

    static var isInstalled: Bool {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @discardableResult
    func run(_ arguments: [String]) async throws -> String {
        let process = try ChildProcess(executable: "/usr/bin/env", ["tmux", "-L", socket] + arguments, name: "tmux \(arguments.first ?? "")")
        process.closeInput()
        let status = await process.waitForExit(timeout: .seconds(10))
        await process.stop()
        try await Task.sleep(for: .milliseconds(30))  // let the pipe drain
        guard status == 0 else { throw ProcessTestError("tmux \(arguments.joined(separator: " ")) failed (\(status ?? -1)): \(process.standardError)") }
        return process.standardOutput
    }

    func screen(_ pane: String) async throws -> String { try await run(["capture-pane", "-p", "-t", pane]) }

    /// Types `text` literally, then Enter.
    func typeLine(_ pane: String, _ text: String) async throws {
        try await run(["send-keys", "-t", pane, "-l", text])
        try await run(["send-keys", "-t", pane, "Enter"])
    }

    func press(_ pane: String, _ key: String) async throws { try await run(["send-keys", "-t", pane, key]) }

    /// Waits until the pane shows a line matching `pattern`; returns that line.
    @discardableResult
    func waitFor(_ pane: String, _ pattern: String, timeout: Duration = .seconds(20)) async throws -> String {
        let regex = try Regex(pattern)
        let deadline = ContinuousClock.now + timeout
        while true {
            let shown = try await screen(pane)
            if let line = shown.split(separator: "\n").first(where: { $0.contains(regex) }) { return String(line) }
            guard ContinuousClock.now < deadline else {
                throw ProcessTestError("pane \(pane) never showed /\(pattern)/ within \(timeout); it shows:\n\(shown)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Checks that the shell in `pane` has its terminal back as it was (canonical input, echo).
    func expectTerminalRestored(_ pane: String) async throws {
        try await typeLine(pane, "stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | tr '\\n' ' '; echo")
        try await waitFor(pane, "^icanon echo *$")
    }

    func kill() async { _ = try? await run(["kill-server"]) }

    /// A shell per name, each in a tmux session of that name, `width` × `height`, with nothing of this
    /// process's environment but PATH, and HOME and XDG_CONFIG_HOME (the client's tokens) at `home`;
    /// returns once every prompt shows.
    func openShells(_ names: [String], home: String, width: Int = 90, height: Int = 32) async throws {
        for pane in names {
            try await run([
                "-f", "/dev/null", "new-session", "-d", "-s", pane, "-x", String(width), "-y", String(height),
                "env -i PATH=/usr/bin:/bin HOME=\(home) TERM=xterm-256color XDG_CONFIG_HOME=\(home) PS1='\(pane)$ ' bash --norc --noprofile",
            ])
            try await waitFor(pane, "^\(pane)\\$")
        }
    }

    /// Ends tmux, then the server, and removes the scratch directory: after a test, passed or failed.
    func tearDown(_ server: TerminalServer, _ home: ScratchDirectory) async {
        await kill()
        await server.process.stop()
        home.remove()
    }
}

/// The interactive lobby view, driven for real in tmux: the screen a person sees while creating a
/// lobby, starting a round and typing words, the countdown moving, and Esc and Ctrl-C giving the
/// terminal back (cooked mode, echo on, the farewell on the normal screen).
@Suite("parlor lobby in tmux", .serialized, .timeLimit(.minutes(3)), .enabled(if: Tmux.isInstalled, "needs tmux (scripts/setup.sh --test)"))
struct TerminalLobbyTmuxTests {
    @Test("A creator types /start and words in the full-screen view; Esc and Ctrl-C restore the terminal")
    func interactiveRound() async throws {
        let server = try await TerminalServer.start()
        let tmux = Tmux()
        let home = try ScratchDirectory("lobby-tmux")
        var bo: ScriptedParlor?
        do {
            let parlor = BuiltProducts.url("parlor").path
            try await tmux.run([
                "-f", "/dev/null", "new-session", "-d", "-s", "ann", "-x", "90", "-y", "36",
                "env -i PATH=/usr/bin:/bin HOME=\(home.path) TERM=xterm-256color XDG_CONFIG_HOME=\(home.path) PS1='ann$ ' bash --norc --noprofile",
            ])
            try await tmux.waitFor("ann", "^ann\\$")
            let profile = "--name Ann --color 2 --emoji 5 --server \(server.url)"
            try await tmux.typeLine("ann", "\(parlor) lobby create \(profile)")
            let summary = try await tmux.waitFor("ann", "Lobby [A-Z]{4} · 1 of 12 players")
            let code = String(try #require(summary.firstMatch(of: /Lobby ([A-Z]{4})/)?.1))
            try await tmux.waitFor("ann", "█")
            try await tmux.waitFor("ann", "You start the first round: type /start and press Enter.")
            try await tmux.waitFor("ann", "\\[/start\\] next game  \\[/start ID\\] that game  \\[/leave\\] leave  \\[Esc\\] quit")

            bo = try ScriptedParlor.launch(["lobby", "join", code, "--name", "Bo"], server: server, name: "bo")
            try await tmux.waitFor("ann", "2 of 12 players")
            try await tmux.waitFor("ann", "Bo +0$")

            try await tmux.typeLine("ann", "/start \(TerminalLobbyTests.game)")
            try await tmux.waitFor("ann", "0:[0-3][0-9] left · Round 1 of 5 · Greek Letters Sprint")
            try await tmux.waitFor("ann", "Category: Greek Letters Sprint")
            try await tmux.waitFor("ann", "\\[Enter\\] submit a word")
            try await bo?.waitForLobbyLine("the round running") { $0.lobby?.status.rawValue == "GAME" }
            try await bo?.ask("word alpha", action: "word")
            try await tmux.waitFor("ann", "Bo +0 +1 word")

            try await tmux.typeLine("ann", "Alpha")
            try await tmux.waitFor("ann", "✓ Alpha: accepted\\.")
            try await tmux.typeLine("ann", "omegas")
            try await tmux.waitFor("ann", "✗ \"omegas\" is not one of the accepted answers\\.")
            try await tmux.waitFor("ann", "Your words: 1 of 2 accepted")

            // The countdown moves on its own, with nothing else happening.
            func secondsLeft() async throws -> Int {
                let line = try await tmux.waitFor("ann", "[0-9]:[0-9]{2} left")
                let match = try #require(line.firstMatch(of: /([0-9]):([0-9]{2}) left/))
                return Int(match.1)! * 60 + Int(match.2)!
            }
            let before = try await secondsLeft()
            try await Task.sleep(for: .milliseconds(2500))
            let after = try await secondsLeft()
            #expect(after < before, "the countdown did not move: \(before) then \(after)")

            // Esc, with a word half typed: back to the shell, the terminal as it was.
            try await tmux.run(["send-keys", "-t", "ann", "-l", "gam"])
            try await tmux.waitFor("ann", "> gam")
            try await tmux.press("ann", "Escape")
            try await tmux.waitFor("ann", "You are still in lobby \(code);")
            try await tmux.expectTerminalRestored("ann")

            // Back in mid-round (joining again is allowed), the words still there; then Ctrl-C.
            try await tmux.typeLine("ann", "clear; \(parlor) lobby join \(code) \(profile)")
            try await tmux.waitFor("ann", "Your words: 1 of 2 accepted")
            try await tmux.press("ann", "C-c")
            try await tmux.waitFor("ann", "You are still in lobby \(code);")
            try await tmux.expectTerminalRestored("ann")
        } catch {
            await tmux.kill()
            await bo?.kill()
            await server.process.stop()
            home.remove()
            throw error
        }
        await tmux.kill()
        await bo?.kill()
        await server.process.stop()
        home.remove()
    }
}
