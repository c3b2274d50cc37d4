import Foundation
import ParlorClient
import ParlorWire
import Testing

/// `parlor replay` driven for real in tmux: a darts match played by ParlorClient against the real
/// `parlor-server`, then stepped through on the scoreboard — Home the start, → a step (the score left
/// moving as it was thrown), End the finished match, q the terminal back; and a tic-tac-toe game on its
/// own board, mark by mark.
@Suite("parlor replay in tmux", .serialized, .timeLimit(.minutes(3)), .enabled(if: Tmux.isInstalled, "needs tmux (scripts/setup.sh --test)"))
struct TerminalReplayTmuxTests {
    @Test("A darts match replays step by step from its start to Ann's checkout")
    func aDartsMatchStepsFromItsStartToItsFinish() async throws {
        // A short pane: each player on one line, the score left as digits.
        try await Self.withPlayers(height: 14) { server, tmux, parlor, ann, bo in
            let created = try await ann.createMatch(CreateMatchArguments(gameType: "501", legs: 1, capacity: 2, playerName: "Ann"))
            let code = created.match.id
            let annId = created.currentUserId
            let boId = try await bo.joinMatch(code: code, playerName: "Bo").currentUserId
            _ = try await ann.startMatch(code: code)
            let connect = "--profile cy --server \(server.url)"

            // Still being played: the server's refusal, and a failing exit status.
            try await tmux.typeLine("cy", "\(parlor) replay \(code) \(connect); echo \"exit=$?\"")
            try await tmux.waitFor("cy", "There is no record of game \(code)")
            try await tmux.waitFor("cy", "^exit=1$")

            // Ann 321, Bo 401, Ann 141, Bo 301, then Ann T20 T19 D12 out.
            let visits: [(annThrows: Bool, darts: [String]?, total: Int?)] = [
                (true, ["T20", "T20", "T20"], nil), (false, nil, 100), (true, nil, 180), (false, nil, 100),
                (true, ["T20", "T19", "D12"], nil),
            ]
            for visit in visits {
                _ = try await ann.recordVisit(code: code, playerId: visit.annThrows ? annId : boId, darts: visit.darts, total: visit.total)
            }
            let finished = try await ann.getMatch(code: code)
            #expect(finished.winnerId == annId)

            try await tmux.typeLine("cy", "\(parlor) replay \(code.lowercased()) \(connect)")
            let start = try await tmux.waitFor("cy", "Replay · darts \(code) · step 0/[0-9]+ · .* · created")
            let last = try #require(start.firstMatch(of: /step 0\/([0-9]+)/).flatMap { Int($0.1) })
            #expect(last == 7, "join, start and five visits")
            try await tmux.waitFor("cy", "Ann \\(host\\) +501")
            try await tmux.press("cy", "Right")
            try await tmux.waitFor("cy", "step 1/7 · .* · Bo$")
            try await tmux.waitFor("cy", "Bo +501")
            try await tmux.press("cy", "Right")
            try await tmux.press("cy", "Right")
            try await tmux.waitFor("cy", "step 3/7 · .* · Ann$")
            try await tmux.waitFor("cy", "Ann \\(host\\) +321")
            try await tmux.press("cy", "Right")
            try await tmux.waitFor("cy", "step 4/7 · .* · Ann$")
            try await tmux.waitFor("cy", "Bo +401")
            try await tmux.press("cy", "Left")
            try await tmux.waitFor("cy", "step 3/7")
            try await tmux.waitFor("cy", "Bo +501")

            try await tmux.press("cy", "End")
            try await tmux.waitFor("cy", "step 7/7 · .* · Ann$")
            try await tmux.waitFor("cy", "Ann wins the match!")
            try await tmux.press("cy", "Home")
            try await tmux.waitFor("cy", "step 0/7 · .* · created")
            try await tmux.waitFor("cy", "Ann \\(host\\) +501")

            try await tmux.press("cy", "q")
            try await tmux.waitFor("cy", "^cy\\$")
            try await tmux.expectTerminalRestored("cy")

            // For scripts: the screen after one step, printed once.
            try await tmux.typeLine("cy", "\(parlor) replay \(code) --step 5 \(connect) | grep -e 'step 5/7' -e 141")
            try await tmux.waitFor("cy", "step 5/7 · .* · Ann")
        }
    }

    @Test("A tic-tac-toe game replays on its board, from the empty board to Ann's row")
    func aTicTacToeGameStepsOnItsBoard() async throws {
        try await Self.withPlayers(height: 20) { server, tmux, parlor, ann, bo in
            let code = try await ann.createTicTacToe(playerName: "Ann").ticTacToe.code
            _ = try await bo.joinTicTacToe(code: code, playerName: "Bo")
            // Ann 0, Bo 3, Ann 1, Bo 4, Ann 2: three in the top row.
            for (player, cell) in [(ann, 0), (bo, 3), (ann, 1), (bo, 4), (ann, 2)] {
                _ = try await player.placeMark(code: code, cell: cell)
            }

            try await tmux.typeLine("cy", "\(parlor) replay \(code) --profile cy --server \(server.url)")
            try await tmux.waitFor("cy", "Replay · tic-tac-toe \(code) · step 0/6 · .* · created")
            try await tmux.waitFor("cy", "Waiting for a second player")
            try await tmux.press("cy", "Right")
            try await tmux.press("cy", "Right")
            try await tmux.waitFor("cy", "step 2/6 · .* · Ann$")
            try await tmux.waitFor("cy", "X │ 2 │ 3")
            try await tmux.press("cy", "End")
            try await tmux.waitFor("cy", "step 6/6 · .* · Ann$")
            try await tmux.waitFor("cy", "Ann wins!")
            try await tmux.waitFor("cy", "X │ X │ X")
            try await tmux.waitFor("cy", "O │ O │ 6")
            try await tmux.press("cy", "q")
            try await tmux.waitFor("cy", "^cy\\$")
            try await tmux.expectTerminalRestored("cy")
        }
    }

    /// The real server, Cy's shell in a tmux pane `height` rows tall, and Ann and Bo signed in with
    /// ParlorClient to play what `body` replays; everything torn down however `body` ends.
    private static func withPlayers(
        height: Int, _ body: (TerminalServer, Tmux, _ parlor: String, _ ann: ParlorClient, _ bo: ParlorClient) async throws -> Void
    ) async throws {
        let server = try await TerminalServer.start()
        let tmux = Tmux()
        let home = try ScratchDirectory("replay-tmux")
        let ann = ParlorClient(configuration: ParlorClientConfiguration(server: try ServerAddress(server.url)))
        let bo = ParlorClient(configuration: ParlorClientConfiguration(server: try ServerAddress(server.url)))
        let runs = [Task { try? await ann.run() }, Task { try? await bo.run() }]
        var failure: (any Error)?
        do {
            try await tmux.openShells(["cy"], home: home.path, width: 90, height: height)
            try await body(server, tmux, BuiltProducts.url("parlor").path, ann, bo)
        } catch {
            failure = error
        }
        runs.forEach { $0.cancel() }
        await ann.close()
        await bo.close()
        await tmux.tearDown(server, home)
        if let failure { throw failure }
    }
}
