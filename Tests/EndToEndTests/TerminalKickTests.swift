import Foundation
import ParlorRules
import Testing

/// `kick NAME` through the real server and real `parlor` processes in scripted mode, the shell's rule
/// (`KickRule`) with tic-tac-toe's removal: a refusal for the player who is not the host, then the host
/// removes them mid-game — their session ends with `removed`, the board is cleared, and a third player
/// takes the seat.
@Suite("parlor kick end to end", .serialized, .timeLimit(.minutes(3)))
struct TerminalKickTests {
    /// What a wait looks for: an enum, not a closure — closures passed to these waits were seen
    /// matching as an earlier wait's predicate (see `TerminalTicTacToeTests.isWon`).
    enum Wanted {
        case seat, seatInPlay, twoPlayers, markDone, kickDone, error, waiting, removed

        func matches(_ text: String) -> Bool {
            guard let line = TicTacToeLine(text) else { return false }
            switch self {
            case .seat: return line.event == "seat"
            case .seatInPlay: return line.event == "seat" && line.ticTacToe?.status == "playing"
            case .twoPlayers: return line.ticTacToe?.players.count == 2
            case .markDone: return line.event == "done" && line.action == "mark"
            case .kickDone: return line.event == "done" && line.action == "kick"
            case .error: return line.event == "error"
            case .waiting: return line.ticTacToe?.status == "waiting"
            case .removed: return line.event == "removed"
            }
        }
    }

    /// The first line after `start` that `predicate` accepts, read; a plain loop over the lines.
    @discardableResult
    static func line(_ parlor: ScriptedParlor, after start: Int = 0, _ what: String, _ wanted: Wanted) async throws -> TicTacToeLine {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            let lines = parlor.process.lines
            var index = start
            while index < lines.count {
                if wanted.matches(lines[index]), let line = TicTacToeLine(lines[index]) { return line }
                index += 1
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ProcessTestError("\(parlor.process.name) did not print \(what) after line \(start):\n\(parlor.process.lines.joined(separator: "\n"))")
    }

    @Test("The host removes the other player, whose session ends; someone else takes the seat")
    func theHostRemovesThePlayerWhoseSessionEnds() async throws {
        try await TerminalServer.with { server in
            let ann = try ScriptedParlor.launch(["tictactoe", "create", "--name", "Ann"], server: server, name: "ann")
            var processes = [ann]
            do {
                let code = try #require(try await Self.line(ann, "its seat", .seat).code)
                let bo = try ScriptedParlor.launch(["tictactoe", "join", code, "--name", "Bo"], server: server, name: "bo")
                processes.append(bo)
                try await Self.line(bo, "its seat", .seatInPlay)
                try await Self.line(ann, "Bo seated", .twoPlayers)
                let marked = ann.process.lines.count
                ann.send("mark 5")
                try await Self.line(ann, after: marked, "the mark", .markDone)

                // Bo is not the host: refused before anything is sent.
                let asked = bo.process.lines.count
                bo.send("kick Ann")
                let refused = try await Self.line(bo, after: asked, "the refusal", .error)
                #expect(refused.message == "Only the host removes a player; Ann can.")
                let unknown = ann.process.lines.count
                ann.send("kick Zed")
                #expect(try await Self.line(ann, after: unknown, "no such player", .error).message
                    == "Nobody called Zed plays in this game.")

                let kicked = ann.process.lines.count
                ann.send("kick bo")
                let cleared = try await Self.line(ann, after: kicked, "the cleared board", .waiting)
                _ = try await Self.line(ann, after: kicked, "the kick's answer", .kickDone)
                #expect(cleared.ticTacToe?.board == Array(repeating: "", count: 9) && cleared.ticTacToe?.players.count == 1)
                #expect(try await Self.line(bo, "the removal", .removed).code == code)
                #expect(await bo.process.waitForExit() == 0)
                processes = [ann]

                let cy = try ScriptedParlor.launch(["tictactoe", "join", code, "--name", "Cy"], server: server, name: "cy")
                processes.append(cy)
                try await Self.line(cy, "its seat", .seatInPlay)
                for process in processes { process.send("quit") }
                for process in processes { #expect(await process.process.waitForExit() == 0) }
            } catch {
                for process in processes { await process.process.stop() }
                throw error
            }
        }
    }
}
