import ArgumentParser
import Foundation
import ParlorClient
import ParlorRules
@testable import ParlorTerminal
import ParlorWire
import Testing

/// `parlor darts …`: its command line, what typed and script lines mean, and what a session reports.
@Suite("Darts session")
struct MatchSessionTests {
    typealias Logic = GameSessionLogic<MatchGame>

    @Test("darts create reads the game, rules, legs, sets, seats, name and guests; join and watch normalize the code")
    func arguments() throws {
        let create = try parse(
            ["darts", "create", "--game", "301", "--in", "double", "--out", "master", "--legs", "3", "--sets", "2", "--players", "3",
             "--name", "Ann", "--guest", "Gil", "--json"], as: DartsCreate.self)
        #expect(create.game == "301" && create.inRule == "double" && create.outRule == "master")
        #expect(create.legs == 3 && create.sets == 2 && create.players == 3 && create.guest == ["Gil"] && create.options.json)
        let defaults = try parse(["darts", "create", "--name", "Bo"], as: DartsCreate.self)
        #expect(defaults.game == "501" && defaults.inRule == "straight" && defaults.outRule == "double" && defaults.legs == 1 && defaults.sets == nil)
        #expect(try parse(["darts", "join", " qx7km ", "--name", "Bo"], as: DartsJoin.self).code == "QX7KM")
        #expect(try parse(["darts", "watch", "qx7km"], as: DartsWatch.self).code == "QX7KM")
    }

    @Test("Mistakes on the darts command line read as sentences")
    func mistakes() {
        #expect(complaint(["darts", "create", "--game", "401"]) == "--game must be 301, 501 or 701 (got \"401\").")
        #expect(complaint(["darts", "create", "--in", "triple"]) == "--in must be straight, double or master (got \"triple\").")
        #expect(complaint(["darts", "create", "--out", "single"]) == "--out must be straight, double or master (got \"single\").")
        #expect(complaint(["darts", "create", "--legs", "0"]) == "--legs must be between 1 and 15 (got 0).")
        #expect(complaint(["darts", "create", "--players", "2", "--guest", "A", "--guest", "B"]) == "--players 2 leaves no seat for 2 guests and you.")
        #expect(complaint(["darts", "join", "K7Q2MX"]) == "Match code must be exactly 5 characters (got 6).")
        #expect(complaint(["darts", "watch", "QX0KM"])?.hasPrefix("Match code contains \"0\"") == true)
    }

    @Test("Typed lines: darts or a total, or a / command")
    func typedLines() {
        #expect(MatchInput.parseTyped(" T20 t20, D16 ") == .success(.visit(darts: ["T20", "t20", "D16"], total: nil)))
        #expect(MatchInput.parseTyped("100") == .success(.visit(darts: nil, total: 100)))
        #expect(MatchInput.parseTyped("D16") == .success(.visit(darts: ["D16"], total: nil)))
        #expect(MatchInput.parseTyped("/edit T20 T20 D16") == .success(.edit(visit: nil, darts: ["T20", "T20", "D16"], total: nil)))
        #expect(MatchInput.parseTyped("/guest Gil Smith") == .success(.addGuest(name: "Gil Smith")))
        #expect(MatchInput.parseTyped("/start") == .success(.start))
        #expect(MatchInput.parseTyped("/quit") == .success(.quit))
        #expect(MatchInput.parseTyped("  ") == nil)
        #expect(MatchInput.parseTyped("T20 T20 T20 T20") == .failure(ScriptCommandError("A visit has at most 3 darts (got 4).")))
        #expect(MatchInput.parseTyped("99999999999999999999") == .failure(ScriptCommandError("999999999999 is not a visit's total (0 to 180).")))
        #expect(MatchInput.parseTyped("/start now") == .failure(ScriptCommandError("/start takes no arguments (got \"now\").")))
        #expect(MatchInput.parseTyped("/guest") == .failure(ScriptCommandError("/guest needs a name, e.g. \"/guest Gil\".")))
    }

    @Test("Script lines: visit, edit [#N], guest, start, leave, match, quit")
    func scriptLines() {
        #expect(MatchInput.parseScript("visit T20 T20 T20") == .success(.visit(darts: ["T20", "T20", "T20"], total: nil)))
        #expect(MatchInput.parseScript("visit 26") == .success(.visit(darts: nil, total: 26)))
        #expect(MatchInput.parseScript("edit #7 T20 T19 D12") == .success(.edit(visit: 7, darts: ["T20", "T19", "D12"], total: nil)))
        #expect(MatchInput.parseScript("edit 45") == .success(.edit(visit: nil, darts: nil, total: 45)))
        #expect(MatchInput.parseScript("undo") == .success(.undo(visit: nil)))
        #expect(MatchInput.parseScript("undo #7") == .success(.undo(visit: 7)))
        #expect(MatchInput.parseTyped("/undo") == .success(.undo(visit: nil)))
        #expect(MatchInput.parseScript("undo #0") == .failure(ScriptCommandError("undo #N takes the visit's number, e.g. \"undo #7\".")))
        #expect(MatchInput.parseScript("undo 60") == .failure(ScriptCommandError("undo takes no arguments (got \"60\").")))
        #expect(MatchInput.parseScript("match") == .success(.showMatch))
        #expect(MatchInput.parseScript("leave") == .success(.leave))
        #expect(MatchInput.parseScript("edit #x 45") == .failure(ScriptCommandError("edit #N takes the visit's number, e.g. \"edit #7 T20 T20 D16\".")))
        #expect(MatchInput.parseScript("visit") == .failure(ScriptCommandError("A visit is its darts (T20 T20 D16) or its total (100).")))
        #expect(MatchInput.parseScript("throw 60") == .failure(ScriptCommandError(
            "Unknown command \"throw\"; use visit VISIT, edit [#N] VISIT, undo [#N], guest NAME, kick NAME, start, rematch, leave, match or quit.")))
    }

    @Test("A script's visit goes to the player to throw; the reply's match is reported once, then done")
    func scriptedVisit() throws {
        let match = try MatchFixtures.playing(["T20 T20 T20"])
        var logic = Logic(mode: .scripted, screen: MatchFixtures.screen(try MatchFixtures.playing([]), me: MatchFixtures.bo))
        let update = logic.handle(.update(MatchView(match), receivedAt: .epoch))
        #expect(update.outputs == [.match(MatchView(match))])
        #expect(logic.handle(.update(MatchView(match), receivedAt: .epoch)).outputs.isEmpty)
        let step = logic.handle(.line("visit 60"))
        #expect(step.action == .visit(player: MatchFixtures.bo, darts: nil, total: 60))
        var after = match
        _ = try after.apply(.recordVisit(playerId: MatchFixtures.bo, visit: VisitInput(total: 60)), by: MatchFixtures.bo, at: .epoch)
        let done = logic.handle(.actionFinished(.visit(player: MatchFixtures.bo, darts: nil, total: 60), .success(MatchView(after))))
        #expect(done.outputs == [.match(MatchView(after)), .done(.visit(player: MatchFixtures.bo, darts: nil, total: 60))])
        #expect(done.outputs.last?.jsonLine == #"{"action":"visit","event":"done"}"#)
        let refused = logic.handle(.actionFinished(.visit(player: MatchFixtures.bo, darts: nil, total: 60),
                                                   .failure(.server(code: .notYourTurn, status: .failedPrecondition, message: "It is Ann's turn to throw."))))
        #expect(refused.outputs.first?.jsonLine == #"{"action":"visit","code":"NOT_YOUR_TURN","event":"error","message":"It is Ann's turn to throw."}"#)
    }

    @Test("Before the start a script's visit is an error line, not a request; the deleted match ends the session")
    func scriptedRefusalsAndDeletion() throws {
        var logic = Logic(mode: .scripted, screen: MatchFixtures.screen(try MatchFixtures.waiting()))
        let step = logic.handle(.line("visit 60"))
        #expect(step.action == nil && step.outputs == [.error(action: nil, code: nil, message: "The match has not started yet.")])
        #expect(logic.handle(.line("match")).outputs.count == 1)
        let gone = logic.handle(.update(nil, receivedAt: .epoch))
        #expect(gone.outputs == [.match(nil)] && gone.ending == .deleted)
        #expect(gone.outputs.first?.jsonLine == #"{"event":"match","match":null}"#)
    }

    @Test("The seat line names the code, the user and the match")
    func seatLine() throws {
        let view = MatchView(try MatchFixtures.waiting())
        let line = MatchOutput.seat(MatchSeatResult(match: view, currentUserId: MatchFixtures.ann)).jsonLine
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(json["event"] as? String == "seat" && json["code"] as? String == "QX7KM" && json["userId"] as? String == MatchFixtures.ann.rawValue)
        #expect((json["match"] as? [String: Any])?["status"] as? String == "waiting")
    }
}
