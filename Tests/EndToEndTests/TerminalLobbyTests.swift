import Foundation
import ParlorWire
import Testing

/// One JSON line of `parlor lobby` in scripted mode.
struct LobbyLine: Decodable {
    let event: String
    let code: String?
    let lobbyId: String?
    let userId: String?
    let lobby: LobbyView?
    let results: LobbyView.RoundResult?
    let action: String?
    let accepted: Bool?
    let word: String?
    let reason: String?
    let message: String?
    let round: Int?
    let words: [WordVerdictResult]?

    init?(_ text: String) {
        guard let line = try? JSONDecoder().decode(LobbyLine.self, from: Data(text.utf8)) else { return nil }
        self = line
    }
}

extension ScriptedParlor {
    /// The first line from `start` on that is a lobby line satisfying `predicate`.
    @discardableResult
    func waitForLobbyLine(
        after start: Int = 0, timeout: Duration = .seconds(20), _ what: String, where predicate: @escaping (LobbyLine) -> Bool
    ) async throws -> LobbyLine {
        let (_, text) = try await process.waitForLine(after: start, timeout: timeout, what) { LobbyLine($0).map(predicate) ?? false }
        guard let line = LobbyLine(text) else { throw ProcessTestError("unreadable line \(text)") }
        return line
    }

    /// Sends `command` and waits for the line it answers with (a `result` or an `error` for `action`).
    @discardableResult
    func ask(_ command: String, action: String) async throws -> LobbyLine {
        let start = process.lines.count
        send(command)
        return try await waitForLobbyLine(after: start, "the answer to \"\(command)\"") {
            ($0.event == "result" || $0.event == "error") && $0.action == action
        }
    }

    var everyLineIsLobbyJSON: Bool { process.lines.allSatisfy { LobbyLine($0) != nil } }
}

/// The real server on port 0 and real `parlor lobby` processes in scripted mode, driven as a script
/// would drive them.
@Suite("parlor lobby end to end", .serialized, .timeLimit(.minutes(3)))
struct TerminalLobbyTests {
    /// A category game of the starter catalog with the shortest time limit (30 s), whose answers are
    /// the Greek letters: no word list involved.
    static let game = "category-greek-letters-fast"

    @Test("Three scripted players play a category round to the server's deadline and all print the same results")
    func threePlayersPlayARound() async throws {
        try await TerminalServer.with { server in
            let ann = try ScriptedParlor.launch(
                ["lobby", "create", "--name", "Ann", "--color", "2", "--emoji", "5"], server: server, name: "ann")
            var players = [ann]
            do {
                let code = try #require(try await ann.waitForLobbyLine("its lobby") { $0.event == "joined" }.code)
                #expect(code.count == 4)
                let bo = try ScriptedParlor.launch(["lobby", "join", code.lowercased(), "--name", "Bo", "--emoji", "7"], server: server, name: "bo")
                players.append(bo)
                // One at a time, so the seats (and so the results) are in a known order.
                try await bo.waitForLobbyLine("its seat") { $0.event == "joined" && $0.code == code }
                let cy = try ScriptedParlor.launch(["lobby", "join", code, "--name", "Cy", "--color", "3"], server: server, name: "cy")
                players.append(cy)
                for player in players {
                    try await player.waitForLobbyLine("all three seated") { $0.lobby?.players.map(\.username) == ["Ann", "Bo", "Cy"] }
                }

                // Before the round: only the creator starts, and words wait for a round.
                let notCreator = try await bo.ask("start", action: "start")
                #expect(notCreator.event == "error")
                #expect(notCreator.message == "Only the lobby's creator (Ann) can start a round.")
                let early = try await bo.ask("word alpha", action: "word")
                #expect(early.message == "No round is running yet; wait for Ann to start one.")

                let started = try await ann.ask("start \(Self.game)", action: "start")
                #expect(started.event == "result", "\(started.message ?? "")")
                for player in players {
                    try await player.waitForLobbyLine("the round running") { $0.lobby?.status.rawValue == "GAME" && $0.lobby?.round?.game.id == Self.game }
                }

                // Nobody new joins mid-round; the sentence names the lobby.
                let late = try await oneShotLobby(["lobby", "join", code, "--name", "Di"], server: server)
                #expect(late.status == 1)
                #expect(late.stderr == "Lobby \(code) is in a round; wait until the round ends.\n")

                #expect(try await ann.ask("word Alpha", action: "word").accepted == true)
                #expect(try await ann.ask("word Beta", action: "word").accepted == true)
                #expect(try await bo.ask("word alpha", action: "word").accepted == true)
                let wrong = try await bo.ask("word omegas", action: "word")
                #expect(wrong.accepted == false)
                #expect(wrong.reason == "\"omegas\" is not one of the accepted answers.")
                let again = try await bo.ask("word ALPHA", action: "word")
                #expect(again.accepted == false)
                #expect(again.reason == "\"ALPHA\" was already submitted.")
                #expect(try await cy.ask("word  Gamma ", action: "word").accepted == true)
                try await bo.waitForLobbyLine("its own words") { $0.event == "private" && $0.words?.map(\.word) == ["alpha", "omegas"] }

                // The server ends the round on its own clock, 30 s after the start.
                for player in players {
                    try await player.waitForLobbyLine(timeout: .seconds(45), "the round's results") { $0.event == "roundEnded" }
                }
                let printed = players.map { player in player.process.lines.first { LobbyLine($0)?.event == "roundEnded" } }
                #expect(Set(printed).count == 1, "the processes printed different results:\n\(printed.map { $0 ?? "none" }.joined(separator: "\n"))")
                let results = try #require(printed[0].flatMap(LobbyLine.init)?.results)
                #expect(results.number == 1 && results.gameId == Self.game)
                #expect(results.players.map(\.username) == ["Ann", "Bo", "Cy"])
                #expect(results.players.map(\.points) == [3, 1, 2])
                #expect(results.players.map(\.total) == [3, 1, 2])
                #expect(results.players[0].words.map { "\($0.word) \($0.points)" } == ["Alpha 1", "Beta 2"])
                #expect(results.players[1].words.map { "\($0.word) \($0.accepted) \($0.points)" } == ["alpha true 1", "omegas false 0"])
                #expect(results.players[2].words.map { "\($0.word) \($0.points)" } == ["Gamma 2"])

                let over = try await cy.ask("word delta", action: "word")
                #expect(over.event == "error")
                #expect(over.message == "The round is over; wait for the next one.")
                for player in players { #expect(player.everyLineIsLobbyJSON, "\(player.process.name) printed something that is not JSON") }
                for player in players { #expect(await player.finish() == 0, "\(player.process.name) did not exit cleanly") }
            } catch {
                for player in players { await player.kill() }
                throw error
            }
        }
    }

    @Test("A missing code is a sentence on stderr; leaving ends the session; the last one out deletes the lobby")
    func leavingAndMistakes() async throws {
        try await TerminalServer.with { server in
            let missing = try await oneShotLobby(["lobby", "join", "zzzz", "--name", "Bo"], server: server)
            #expect(missing.status == 1)
            #expect(missing.stderr == "No lobby has the code ZZZZ.\n")
            #expect(missing.stdout.isEmpty)

            let games = try await oneShotLobby(["lobby", "games", "--json"], server: server)
            #expect(games.status == 0)
            #expect(games.stdout.contains("\"id\":\"\(Self.game)\""))

            let ann = try ScriptedParlor.launch(["lobby", "create", "--name", "Ann"], server: server, name: "ann")
            var players = [ann]
            do {
                let code = try #require(try await ann.waitForLobbyLine("its lobby") { $0.event == "joined" }.code)
                let bo = try ScriptedParlor.launch(["lobby", "join", code, "--name", "Bo"], server: server, name: "bo")
                players.append(bo)
                try await ann.waitForLobbyLine("Bo seated") { $0.lobby?.players.count == 2 }

                // Ann leaves: Bo becomes the creator; then Bo leaves and the lobby is gone.
                let left = try await ann.ask("leave", action: "leave")
                #expect(left.event == "result")
                try await ann.waitForLobbyLine("the farewell") { $0.event == "left" && $0.code == code }
                #expect(await ann.process.waitForExit() == 0)
                try await bo.waitForLobbyLine("Bo in charge") { $0.lobby?.players.map(\.username) == ["Bo"] && $0.lobby?.players.first?.isCreator == true }
                try await bo.ask("leave", action: "leave")
                #expect(await bo.process.waitForExit() == 0)
                let gone = try await oneShotLobby(["lobby", "join", code, "--name", "Cy"], server: server)
                #expect(gone.stderr == "No lobby has the code \(code).\n")
                for player in players { await player.kill() }
            } catch {
                for player in players { await player.kill() }
                throw error
            }
        }
    }
}

/// Runs a `parlor` command with its own identity and no input to the end.
func oneShotLobby(_ arguments: [String], server: TerminalServer) async throws -> (status: Int32?, stdout: String, stderr: String) {
    let home = try ScratchDirectory("lobby-oneshot")
    defer { home.remove() }
    return try await oneShot(arguments, home: home, server: server)
}
