import Foundation
import ParlorRules
import Testing

/// One JSON line of `parlor tictactoe` in scripted mode.
struct TicTacToeLine: Decodable {
    let event: String
    let code: String?
    let userId: String?
    let ticTacToe: TicTacToeView?
    let action: String?
    let message: String?

    init?(_ text: String) {
        guard let line = try? JSONDecoder().decode(TicTacToeLine.self, from: Data(text.utf8)) else { return nil }
        self = line
    }
}

extension ScriptedParlor {
    @discardableResult
    func waitForTicTacToeLine(
        after start: Int = 0, _ what: String, where predicate: @escaping (TicTacToeLine) -> Bool
    ) async throws -> TicTacToeLine {
        let (_, text) = try await process.waitForLine(after: start, what) { TicTacToeLine($0).map(predicate) ?? false }
        guard let line = TicTacToeLine(text) else { throw ProcessTestError("unreadable line \(text)") }
        return line
    }

    /// Sends `mark <cell>` once this process has seen a board with `marks` marks on it, and waits for
    /// the server's answer. The client checks the turn against the game it has seen: a move sent
    /// before the other player's last mark reached this process would be refused as out of turn.
    func mark(_ cell: Int, afterSeeing marks: Int) async throws {
        try await waitForTicTacToeLine("a board with \(marks) marks") { line in
            line.ticTacToe.map { game in game.board.filter { !$0.isEmpty }.count == marks } ?? false
        }
        let before = process.lines.count
        send("mark \(cell)")
        try await waitForTicTacToeLine(after: before, "mark \(cell) done") { $0.event == "done" && $0.action == "mark" }
    }
}

/// The real server and real `parlor tictactoe` processes in scripted mode: two players and a spectator
/// (through `parlor watch`), a refused move, a win, and the rematch every process follows.
@Suite("parlor tictactoe end to end", .serialized, .timeLimit(.minutes(3)))
struct TerminalTicTacToeTests {
    static func isWon(_ line: TicTacToeLine) -> Bool { line.ticTacToe?.status == "won" }

    @Test("Two scripted players play to a win while a third watches; the rematch takes them all on")
    func twoPlayersAndASpectator() async throws {
        try await TerminalServer.with { server in
            let ann = try ScriptedParlor.launch(["tictactoe", "create", "--name", "Ann"], server: server, name: "ann")
            var processes = [ann]
            do {
                // Closures stay out of #require's argument here: see scripts/check-closures.py.
                let seat = try await ann.waitForTicTacToeLine("its seat") { $0.event == "seat" }
                let code = try #require(seat.code)
                #expect(code.count == 7 && code.allSatisfy(\.isNumber))
                let bo = try ScriptedParlor.launch(["tictactoe", "join", code, "--name", "Bo"], server: server, name: "bo")
                processes.append(bo)
                try await bo.waitForTicTacToeLine("its seat") { $0.event == "seat" && $0.ticTacToe?.status == "playing" }
                let cy = try ScriptedParlor.launch(["watch", code], server: server, name: "cy")
                processes.append(cy)
                try await cy.waitForTicTacToeLine("the game") { $0.event == "ticTacToe" && $0.ticTacToe?.players.count == 2 }

                // Out of turn: refused before anything is sent.
                let start = bo.process.lines.count
                bo.send("mark 5")
                let refused = try await bo.waitForTicTacToeLine(after: start, "the refusal") { $0.event == "error" }
                #expect(refused.message == "It is Ann's turn.")
                for (player, cell, marks) in [(ann, 1, 0), (bo, 4, 1), (ann, 2, 2), (bo, 5, 3), (ann, 3, 4)] {
                    try await player.mark(cell, afterSeeing: marks)
                }
                for process in processes {
                    let won = try await process.waitForTicTacToeLine("the win", where: Self.isWon)
                    #expect(won.ticTacToe?.board == ["X", "X", "X", "O", "O", "", "", "", ""])
                    #expect(won.ticTacToe?.line == [0, 1, 2])
                }
                bo.send("rematch")
                for process in processes {
                    let started = try await process.waitForTicTacToeLine("the rematch") { $0.event == "rematch" }
                    let rematch = try #require(started.code)
                    #expect(rematch != code)
                    try await process.waitForTicTacToeLine("the rematch's game") { $0.ticTacToe?.code == rematch && $0.ticTacToe?.status == "playing" }
                }
                for process in processes { process.send("quit") }
                for process in processes { #expect(await process.process.waitForExit() == 0) }
            } catch {
                for process in processes { await process.process.stop() }
                throw error
            }
        }
    }
}

