import Foundation
import Testing

/// Tic-tac-toe, the fifth game, driven for real in tmux: two terminals play a game to a win while a
/// third watches through `parlor watch CODE` (told by the code's 7 digits), the rematch takes every
/// terminal on to the next game, and Esc gives the terminal back.
@Suite("parlor tictactoe in tmux", .serialized, .timeLimit(.minutes(3)), .enabled(if: Tmux.isInstalled, "needs tmux (scripts/setup.sh --test)"))
struct TerminalTicTacToeTmuxTests {
    @Test("Ann and Bo play to three in a row while Cy watches, then the rematch takes everyone on")
    func twoPlayersAndAWatcher() async throws {
        let server = try await TerminalServer.start()
        let tmux = Tmux()
        let home = try ScratchDirectory("tictactoe-tmux")
        do {
            let parlor = BuiltProducts.url("parlor").path
            try await tmux.openShells(["ann", "bo", "cy"], home: home.path)
            let connect = "--server \(server.url)"
            try await tmux.typeLine("ann", "\(parlor) tictactoe create --name Ann --profile ann \(connect)")
            let summary = try await tmux.waitFor("ann", "Tic-tac-toe [0-9]{7} · (● )?X Ann \\(you\\)")
            let code = String(try #require(summary.firstMatch(of: /Tic-tac-toe ([0-9]{7})/)?.1))
            try await tmux.waitFor("ann", "█")
            try await tmux.waitFor("ann", "Waiting for a second player: parlor tictactoe join \(code)")

            try await tmux.typeLine("bo", "\(parlor) tictactoe join \(code) --name Bo --profile bo \(connect)")
            try await tmux.waitFor("bo", "Ann to play\\.")
            try await tmux.typeLine("cy", "\(parlor) watch \(code) --profile cy \(connect)")
            try await tmux.waitFor("cy", "X Ann vs (● )?O Bo")
            try await tmux.waitFor("ann", "Your turn\\.")

            // Bo cannot play out of turn: the screen says so and sends nothing.
            try await tmux.press("bo", "5")
            try await tmux.waitFor("bo", "It is Ann's turn\\.")
            for (pane, key) in [("ann", "1"), ("bo", "4"), ("ann", "2"), ("bo", "5")] {
                try await tmux.press(pane, key)
                try await tmux.waitFor(pane == "ann" ? "bo" : "ann", "Your turn\\.")
            }
            // A taken cell is refused on the screen.
            try await tmux.press("ann", "4")
            try await tmux.waitFor("ann", "Cell 4 is already marked\\.")
            try await tmux.press("ann", "3")
            try await tmux.waitFor("ann", "You win!")
            for pane in ["bo", "cy"] { try await tmux.waitFor(pane, "Ann wins!") }
            try await tmux.waitFor("cy", "X │ X │ X")

            // Bo starts the rematch: every terminal goes on to it, Bo now X and first to play.
            try await tmux.press("bo", "r")
            for pane in ["ann", "bo", "cy"] {
                let next = try await tmux.waitFor(pane, "Tic-tac-toe [0-9]{7} · (● )?X Bo")
                #expect(!next.contains(code), "\(pane) is on the rematch: \(next)")
            }
            try await tmux.waitFor("bo", "Your turn\\.")
            try await tmux.waitFor("ann", "Bo to play\\.")

            try await tmux.press("ann", "Escape")
            try await tmux.waitFor("ann", "You are still in game [0-9]{7}; parlor tictactoe join [0-9]{7}")
            try await tmux.expectTerminalRestored("ann")
            try await tmux.press("cy", "C-c")
            try await tmux.waitFor("cy", "^cy\\$")
        } catch {
            await tmux.tearDown(server, home)
            throw error
        }
        await tmux.tearDown(server, home)
    }
}
