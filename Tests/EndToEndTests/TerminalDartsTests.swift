import Foundation
import ParlorWire
import Testing

/// One JSON line of `parlor darts` in scripted mode.
struct DartsLine: Decodable {
    let event: String
    let code: String?
    let userId: String?
    let match: MatchView?
    let action: String?
    let message: String?

    init?(_ text: String) {
        guard let line = try? JSONDecoder().decode(DartsLine.self, from: Data(text.utf8)) else { return nil }
        self = line
    }
}

extension ScriptedParlor {
    /// The first line from `start` on that is a darts line satisfying `predicate`.
    @discardableResult
    func waitForDartsLine(
        after start: Int = 0, _ what: String, where predicate: @escaping (DartsLine) -> Bool
    ) async throws -> DartsLine {
        let (_, text) = try await process.waitForLine(after: start, what) { DartsLine($0).map(predicate) ?? false }
        guard let line = DartsLine(text) else { throw ProcessTestError("unreadable line \(text)") }
        return line
    }

    /// Sends `command` and waits for its answer (`done` or `error` for `action`; an error without one
    /// for a line refused before anything was sent).
    @discardableResult
    func play(_ command: String, action: String?) async throws -> DartsLine {
        let start = process.lines.count
        send(command)
        return try await waitForDartsLine(after: start, "the answer to \"\(command)\"") {
            ($0.event == "done" || $0.event == "error") && $0.action == action
        }
    }

    /// Every `match` view this process printed, in order.
    var matchVersions: [Int] { process.lines.compactMap { DartsLine($0)?.match?.version } }

    /// Ann creates a 301 match and Bo joins it, both scripted: the two processes (killed if either fails
    /// to take its seat), the code and Bo's id, once Ann's match shows Bo.
    static func annHostingBo(_ server: TerminalServer) async throws -> (ann: ScriptedParlor, bo: ScriptedParlor, code: String, boId: String) {
        let ann = try ScriptedParlor.launch(["darts", "create", "--game", "301", "--name", "Ann"], server: server, name: "ann")
        var bo: ScriptedParlor?
        do {
            let code = try #require(try await ann.waitForDartsLine("its seat") { $0.event == "seat" }.code)
            let joined = try ScriptedParlor.launch(["darts", "join", code, "--name", "Bo"], server: server, name: "bo")
            bo = joined
            let boId = try #require(try await joined.waitForDartsLine("its seat") { $0.event == "seat" }.userId)
            try await ann.waitForDartsLine("Bo in the match") { $0.match?.players.count == 2 }
            return (ann, joined, code, boId)
        } catch {
            await ann.kill()
            await bo?.kill()
            throw error
        }
    }
}

/// The real server and real `parlor darts` processes in scripted mode: two players and a spectator
/// play a 301 leg to the finish.
@Suite("parlor darts end to end", .serialized, .timeLimit(.minutes(3)))
struct TerminalDartsTests {
    @Test("undo takes the last visit back for the host; another player may not")
    func undoTakesTheLastVisitBack() async throws {
        try await TerminalServer.with { server in
            let (ann, bo, _, _) = try await ScriptedParlor.annHostingBo(server)
            let processes = [ann, bo]
            do {
                #expect(try await ann.play("start", action: "start").event == "done")
                #expect(try await ann.play("visit T20 T20 T20", action: "visit").event == "done")
                try await bo.waitForDartsLine("Ann's visit") { $0.match?.lastVisit?.number == 1 }
                let refused = try await bo.play("undo", action: "undo")
                #expect(refused.event == "error" && refused.message?.isEmpty == false)
                let starts = processes.map(\.process.lines.count)
                #expect(try await ann.play("undo #1", action: "undo").event == "done")
                for (process, start) in zip(processes, starts) {
                    let taken = try await process.waitForDartsLine(after: start, "the visit taken back") { $0.match?.lastVisit == nil && $0.match?.status == "playing" }
                    #expect(taken.match?.players.map(\.remaining) == [301, 301])
                    #expect(taken.match?.currentPlayerId == taken.match?.players.first?.id, "the turn is Ann's again")
                }
                for process in processes { #expect(await process.finish() == 0, "\(process.process.name) did not exit cleanly") }
            } catch {
                for process in processes { await process.kill() }
                throw error
            }
        }
    }

    @Test("the host's rematch of a finished match takes both players and the spectator on to it, Bo now first")
    func rematchTakesEveryoneOn() async throws {
        try await TerminalServer.with { server in
            let (ann, bo, code, boId) = try await ScriptedParlor.annHostingBo(server)
            var processes = [ann, bo]
            do {
                let cy = try ScriptedParlor.launch(["darts", "watch", code], server: server, name: "cy")
                processes.append(cy)
                try await cy.waitForDartsLine("the match") { $0.match?.players.count == 2 }
                #expect(try await ann.play("start", action: "start").event == "done")
                #expect(try await ann.play("rematch", action: nil).message == "A rematch starts once the match is over.")
                #expect(try await ann.play("visit T20 T20 T20", action: "visit").event == "done")
                #expect(try await ann.play("visit 60", action: "visit").event == "done")
                #expect(try await ann.play("visit T20 T11 D14", action: "visit").event == "done")
                try await bo.waitForDartsLine("the finished match") { $0.match?.status == "finished" }
                #expect(try await bo.play("rematch", action: nil).message == "Only the host starts a rematch; Ann can.")

                ann.send("rematch")
                for process in processes {
                    let next = try #require(try await process.waitForDartsLine("the rematch") { $0.event == "rematch" }.code)
                    #expect(next != code)
                    let rematch = try await process.waitForDartsLine("the rematch's match") { $0.match?.id == next }
                    #expect(rematch.match?.status == "playing" && rematch.match?.players.map(\.name) == ["Bo", "Ann"])
                    #expect(rematch.match?.currentPlayerId?.rawValue == boId && rematch.match?.players.map(\.remaining) == [301, 301])
                }
                // Bo's session is seated in the rematch: his visit goes through there.
                #expect(try await bo.play("visit 100", action: "visit").event == "done")
                for process in processes { process.send("quit") }
                for process in processes { #expect(await process.process.waitForExit() == 0, "\(process.process.name) did not exit cleanly") }
            } catch {
                for process in processes { await process.kill() }
                throw error
            }
        }
    }

    @Test("Two scripted players and a scripted spectator play a 301 leg; everyone ends on the same finished match")
    func twoPlayersAndASpectator() async throws {
        try await TerminalServer.with { server in
            let ann = try ScriptedParlor.launch(["darts", "create", "--game", "301", "--name", "Ann"], server: server, name: "ann")
            var processes = [ann]
            do {
                // Closures stay out of #require's argument here: see scripts/check-closures.py.
                let annSeat = try await ann.waitForDartsLine("its seat") { $0.event == "seat" }
                let code = try #require(annSeat.code)
                #expect(code.count == 5)
                let bo = try ScriptedParlor.launch(["darts", "join", code.lowercased(), "--name", "Bo"], server: server, name: "bo")
                processes.append(bo)
                let boSeat = try await bo.waitForDartsLine("its seat") { $0.event == "seat" && $0.code == code }
                let boId = try #require(boSeat.userId)
                let cy = try ScriptedParlor.launch(["darts", "watch", code], server: server, name: "cy")
                processes.append(cy)
                try await cy.waitForDartsLine("the match") { $0.match?.players.count == 2 }

                // Before the start a visit is nobody's: refused on the spot, with a sentence.
                let early = try await bo.play("visit 60", action: nil)
                #expect(early.event == "error" && early.message == "The match has not started yet.")
                #expect(try await bo.play("start", action: "start").message == "Only the host can start the match.")
                #expect(try await ann.play("start", action: "start").event == "done")
                try await bo.waitForDartsLine("the start") { $0.match?.status == "playing" }

                // Bo's visit goes to the player to throw, Ann, whose visits only she and the host enter.
                let notHis = try await bo.play("visit 60", action: "visit")
                #expect(notHis.event == "error" && notHis.message == "Only the host can record another player's visit.")
                #expect(try await ann.play("visit T20 T20 T20", action: "visit").event == "done")
                try await bo.waitForDartsLine("his turn") { $0.match?.currentPlayerId.map(\.rawValue) == boId }
                #expect(try await bo.play("visit 100", action: "visit").event == "done")
                // The host corrects Bo's visit.
                #expect(try await ann.play("edit #2 140", action: "edit").event == "done")
                let bust = try await ann.play("visit T20 T20 D1", action: "visit")
                #expect(bust.event == "done")
                try await bo.waitForDartsLine("Ann's bust") { $0.match?.version == 7 }
                let refused = try await bo.play("visit T20 T21 M", action: "visit")
                #expect(refused.event == "error" && refused.message?.hasPrefix("\"T21\" is not a dart") == true)
                #expect(try await bo.play("visit 60", action: "visit").event == "done")
                // A script's visit goes to whoever its view says throws: wait for Ann's turn to show.
                try await ann.waitForDartsLine("her turn") { $0.match?.version == 8 }
                #expect(try await ann.play("visit T20 T11 D14", action: "visit").event == "done")

                for process in processes {
                    let final = try await process.waitForDartsLine("the finished match") { $0.match?.status == "finished" }
                    let match = try #require(final.match)
                    #expect(match.version == 9 && match.winnerId == match.hostId)
                    #expect(match.players.map(\.remaining) == [0, 101])
                    #expect(match.players[0].stats.highestCheckout == 121)
                    let versions = process.matchVersions
                    #expect(versions == versions.sorted() && Set(versions).count == versions.count && versions.last == 9, "\(process.process.name): \(versions)")
                    #expect(process.process.lines.allSatisfy { DartsLine($0) != nil }, "\(process.process.name) printed something that is not JSON")
                }
                for process in processes { #expect(await process.finish() == 0, "\(process.process.name) did not exit cleanly") }
            } catch {
                for process in processes { await process.kill() }
                throw error
            }
        }
    }
}
