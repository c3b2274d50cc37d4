import Foundation
import Testing

/// A rematch, driven for real in tmux: three terminals in a rummy room play it to the end, the
/// moderator presses m, and every terminal — without anyone typing anything — ends up in the new room
/// with the same seats.
@Suite("parlor rematch in tmux", .serialized, .timeLimit(.minutes(3)), .enabled(if: Tmux.isInstalled, "needs tmux (scripts/setup.sh --test)"))
struct TerminalRematchTmuxTests {
    @Test("Ann, Bo and Cy finish a room; Ann presses m and all three follow to the rematch")
    func threeTerminalsFollowTheRematch() async throws {
        let server = try await TerminalServer.start()
        let tmux = Tmux()
        let home = try ScratchDirectory("rematch-tmux")
        do {
            let parlor = BuiltProducts.url("parlor").path
            let connect = "--server \(server.url)"
            try await tmux.openShells(["ann", "bo", "cy", "ops"], home: home.path)
            try await tmux.typeLine("ann", "\(parlor) create --limit 100 --players 3 --name Ann --profile ann \(connect)")
            let summary = try await tmux.waitFor("ann", "Room [A-Z0-9]{6} · to 100 points")
            let old = String(try #require(summary.firstMatch(of: /Room ([A-Z0-9]{6})/)?.1))
            try await tmux.typeLine("bo", "\(parlor) join \(old) --name Bo --profile bo \(connect)")
            try await tmux.typeLine("cy", "\(parlor) join \(old) --name Cy --profile cy \(connect)")
            try await tmux.waitFor("ann", "3 of 3 seats")

            // The round is played by one-shot commands from a fourth shell; the three screens follow.
            let steps = [
                "ready \(old) --profile bo", "ready \(old) --profile cy", "start \(old) --profile ann",
                "score \(old) 105 --profile bo", "next \(old) --profile ann",
            ]
            try await tmux.typeLine("ops", steps.map { "\(parlor) \($0) \(connect) >/dev/null" }.joined(separator: " && ") + " && echo ops-done")
            try await tmux.waitFor("ops", "^ops-done$")
            for pane in ["ann", "bo", "cy"] { try await tmux.waitFor(pane, "Standings") }
            try await tmux.waitFor("ann", "\\[m\\] rematch")

            try await tmux.press("ann", "m")
            let new = try await Self.newRoom(in: "ann", other: old, tmux: tmux)
            for pane in ["bo", "cy"] { try await tmux.waitFor(pane, "Room \(new) · to 100 points · 25¢ a point · 3 of 3 seats") }
            // The same seats: each terminal is its player again, and the keys work there.
            try await tmux.waitFor("bo", "Bo \\(you\\)")
            try await tmux.waitFor("cy", "Cy \\(you\\)")
            try await tmux.press("bo", "r")
            try await tmux.waitFor("ann", "Waiting to start: 2 of 3 ready")
        } catch {
            await tmux.tearDown(server, home)
            throw error
        }
        await tmux.tearDown(server, home)
    }

    /// Waits until `pane` shows a room other than `other`; returns its code.
    static func newRoom(in pane: String, other: String, tmux: Tmux) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            let shown = try await tmux.screen(pane)
            for match in shown.matches(of: /Room ([A-Z0-9]{6}) · to 100 points/) where String(match.1) != other {
                return String(match.1)
            }
            guard ContinuousClock.now < deadline else { throw ProcessTestError("\(pane) never showed a room but \(other):\n\(shown)") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
