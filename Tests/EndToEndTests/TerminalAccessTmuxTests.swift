import Foundation
import Testing

/// A private game from the terminal, driven for real in tmux: Ann creates a private darts match, Cy's
/// join without an invitation is refused, `parlor invite` gives the invitation whose link Bo joins with
/// (`--invite`), and once `parlor lock` has locked the match — which every open screen's status bar
/// says — even the invitation lets nobody else in.
@Suite("parlor invite in tmux", .serialized, .timeLimit(.minutes(3)), .enabled(if: Tmux.isInstalled, "needs tmux (scripts/setup.sh --test)"))
struct TerminalAccessTmuxTests {
    @Test("Ann invites Bo to her private match and locks it; Cy is refused both times")
    func aPrivateMatchJoinedByInvitation() async throws {
        let server = try await TerminalServer.start()
        let tmux = Tmux()
        let home = try ScratchDirectory("access-tmux")
        do {
            let parlor = BuiltProducts.url("parlor").path
            try await tmux.openShells(["ann", "host", "bo", "cy"], home: home.path, width: 160)
            let connect = "--server \(server.url)"
            try await tmux.typeLine("ann", "\(parlor) darts create --name Ann --profile ann --private \(connect)")
            let summary = try await tmux.waitFor("ann", "Match [A-Z0-9]{5} · 501")
            let code = String(try #require(summary.firstMatch(of: /Match ([A-Z0-9]{5})/)?.1))
            try await tmux.waitFor("ann", "1 of 4 players")
            // The status bar says the match is private.
            try await tmux.waitFor("ann", "● connected · v[0-9]+ · private$")

            // Without an invitation: refused, in words.
            try await tmux.typeLine("cy", "\(parlor) darts join \(code) --name Cy --profile cy \(connect)")
            try await tmux.waitFor("cy", "private: join it with an invitation from its host")

            // Ann's invitation, from a second terminal of hers (the same profile), kept in a file.
            let saved = home.url.appendingPathComponent("invitation.txt").path
            try await tmux.typeLine("host", "\(parlor) invite \(code) --profile ann \(connect) > \(saved) && echo invited")
            try await tmux.waitFor("host", "^invited$")
            // Written to a file, the answer is its JSON line.
            let printed = try String(contentsOfFile: saved, encoding: .utf8)
            let invite = String(try #require(printed.firstMatch(of: /"invite":"(i1\.[0-9]+\.[A-Za-z0-9_-]+)"/)?.1, "\(printed)"))
            #expect(printed.contains("\"link\":\"/join/\(code)?invite=\(invite)\""), "\(printed)")

            // Bo passes the link on as it came (--invite takes the token or the link that carries it).
            try await tmux.typeLine("bo", "\(parlor) darts join \(code) --name Bo --profile bo --invite '/join/\(code)?invite=\(invite)' \(connect)")
            try await tmux.waitFor("bo", "2 of 4 players · Waiting for Ann to start.")
            try await tmux.waitFor("ann", "2 of 4 players")

            // Locked: the invitation no longer lets anyone new in.
            try await tmux.typeLine("host", "\(parlor) lock \(code) --profile ann \(connect)")
            try await tmux.waitFor("host", "\(code): private, locked")
            // Every open screen of the match says so at once.
            for pane in ["ann", "bo"] { try await tmux.waitFor(pane, "● connected · v[0-9]+ · private · locked$") }
            try await tmux.typeLine("cy", "\(parlor) darts join \(code) --name Cy --profile cy --invite \(invite) \(connect)")
            try await tmux.waitFor("cy", "is locked: its host lets nobody else in")
        } catch {
            await tmux.tearDown(server, home)
            throw error
        }
        await tmux.tearDown(server, home)
    }
}
