import Foundation
import Testing

/// The darts scoreboard, driven for real in tmux as the README tells it: a 501 leg from two terminals
/// with a third watching — the score in block digits, the finish to aim for, a typo replaced with ↑,
/// the winner on every screen, and Esc giving the terminal back.
@Suite("parlor darts in tmux", .serialized, .timeLimit(.minutes(3)), .enabled(if: Tmux.isInstalled, "needs tmux (scripts/setup.sh --test)"))
struct TerminalDartsTmuxTests {
    @Test("Ann and Bo play a 501 leg in two terminals while Cy watches in a third")
    func twoPlayersAndAWatcher() async throws {
        let server = try await TerminalServer.start()
        let tmux = Tmux()
        let home = try ScratchDirectory("darts-tmux")
        do {
            let parlor = BuiltProducts.url("parlor").path
            for pane in ["ann", "bo", "cy"] {
                try await tmux.run([
                    "-f", "/dev/null", "new-session", "-d", "-s", pane, "-x", "90", "-y", "32",
                    "env -i PATH=/usr/bin:/bin HOME=\(home.path) TERM=xterm-256color XDG_CONFIG_HOME=\(home.path) PS1='\(pane)$ ' bash --norc --noprofile",
                ])
                try await tmux.waitFor(pane, "^\(pane)\\$")
            }
            let connect = "--server \(server.url)"
            try await tmux.typeLine("ann", "\(parlor) darts create --name Ann --profile ann \(connect)")
            let summary = try await tmux.waitFor("ann", "Match [A-Z0-9]{5} · 501 · straight in · double out · first to 1 leg")
            let code = String(try #require(summary.firstMatch(of: /Match ([A-Z0-9]{5})/)?.1))
            try await tmux.waitFor("ann", "█")
            try await tmux.waitFor("ann", "1 of 4 players · You start the match: type /start and press Enter.")

            try await tmux.typeLine("bo", "\(parlor) darts join \(code.lowercased()) --name Bo --profile bo \(connect)")
            try await tmux.waitFor("bo", "2 of 4 players · Waiting for Ann to start.")
            try await tmux.typeLine("cy", "\(parlor) darts watch \(code) --profile cy \(connect)")
            try await tmux.waitFor("cy", "2 of 4 players · Waiting for Ann to start. · you are watching")

            try await tmux.typeLine("ann", "/start")
            try await tmux.waitFor("ann", "Leg 1 · your throw")
            try await tmux.waitFor("bo", "Leg 1 · Ann to throw")
            try await tmux.typeLine("ann", "T20 T20 T20")
            try await tmux.waitFor("bo", "Leg 1 · your throw")
            try await tmux.waitFor("bo", "^  Bo > ")
            try await tmux.typeLine("bo", "100")
            try await tmux.waitFor("ann", "Leg 1 · your throw")
            try await tmux.typeLine("ann", "t20 t20 t20")
            try await tmux.waitFor("bo", "^  Bo > ")
            try await tmux.typeLine("bo", "100")
            // Ann stands on 141; everyone sees the finish to aim for under her name.
            try await tmux.waitFor("cy", "Out: T20 T19 D12")
            try await tmux.waitFor("ann", "Out: T20 T19 D12 +Last: 100")
            try await tmux.waitFor("cy", "Avg 180 · 1st 9 180 +Avg 100 · 1st 9 100")

            // A typo, 2 left; ↑ brings the visit back to replace it.
            try await tmux.typeLine("ann", "T20 T19 D11")
            try await tmux.waitFor("ann", "Ann: 139, 2 left\\.")
            try await tmux.waitFor("bo", "^  Bo > ")
            try await tmux.press("ann", "Up")
            try await tmux.waitFor("ann", "^  edit #5 > T20 T19 D11")
            try await tmux.waitFor("ann", "\\[Enter\\] replace visit #5  \\[Esc\\] keep it")
            try await tmux.press("ann", "BSpace")
            try await tmux.typeLine("ann", "2")
            for pane in ["ann", "bo", "cy"] {
                try await tmux.waitFor(pane, "Ann wins the match!")
                try await tmux.waitFor(pane, "Ann \\(host.*\\) ★ winner")
                try await tmux.waitFor(pane, "Last: T20 T19 D12 out!")
            }

            // Esc: back to the shell, the terminal as it was.
            try await tmux.press("ann", "Escape")
            try await tmux.waitFor("ann", "You are still in match \(code);")
            try await tmux.typeLine("ann", "stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | tr '\\n' ' '; echo")
            try await tmux.waitFor("ann", "^icanon echo *$")
            try await tmux.press("cy", "C-c")
            try await tmux.waitFor("cy", "^cy\\$")
        } catch {
            await tmux.kill()
            await server.process.stop()
            home.remove()
            throw error
        }
        await tmux.kill()
        await server.process.stop()
        home.remove()
    }
}
