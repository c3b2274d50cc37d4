import Foundation
import Testing

/// A room the server's operator closes from `/admin`: the terminal at the table ends and says why.
@Suite("parlor when the operator closes the room, in tmux", .serialized, .timeLimit(.minutes(2)), .enabled(if: Tmux.isInstalled, "needs tmux (scripts/setup.sh --test)"))
struct TerminalClosedTmuxTests {
    static let token = "an-operator-token-for-tests"

    @Test("The operator's reason is the terminal's last word")
    func closedByTheOperator() async throws {
        let server = try await TerminalServer.start(extraArguments: ["--no-persist", "--admin-token", Self.token])
        let tmux = Tmux()
        let home = try ScratchDirectory("closed-tmux")
        do {
            try await tmux.openShells(["ann"], home: home.path, width: 80, height: 20)
            let parlor = BuiltProducts.url("parlor").path
            try await tmux.typeLine("ann", "\(parlor) create --players 2 --name Ann --server \(server.url)")
            let screen = try await tmux.waitFor("ann", "Room [0-9A-Z]{6} ·")
            let code = try #require(screen.firstMatch(of: /Room ([0-9A-Z]{6})/).map { String($0.1) }, "no room code on screen:\n\(screen)")

            let closed = try await curl([
                "-X", "POST", "-H", "Authorization: Bearer \(Self.token)", "-H", "Content-Type: application/json",
                "--data", #"{"reason":"The venue is closing"}"#,
                "http://127.0.0.1:\(server.port)/admin/api/games/rummy/\(code)/close",
            ])
            #expect(closed.status == 204, "\(closed.body)")
            try await tmux.waitFor("ann", "^Room \(code) was closed by the server's operator: The venue is closing")
            try await tmux.expectTerminalRestored("ann")
        } catch {
            await tmux.tearDown(server, home)
            throw error
        }
        await tmux.tearDown(server, home)
    }
}
