import ParlorClient
import ParlorRules
@testable import ParlorTerminal
import ParlorWire
import Testing

/// `/kick NAME` through the shell's `KickRule` in the quiz, darts and tic-tac-toe screens: the host names
/// a player, anyone else (or a name nobody has, or oneself) is told why not before anything is sent; a
/// session whose seat the host took away ends with `removed`.
@Suite("The host's /kick in quizzes, matches and tic-tac-toe games")
struct HostKickTests {
    @Test("In a quiz the host removes by name; refusals say why")
    func quizKick() throws {
        var ann = QuizFixtures.screen(try QuizFixtures.view("waiting"), me: QuizFixtures.ann)
        func type(_ line: String) -> QuizAction? {
            ann.input = line
            return ann.handle(.enter)
        }
        #expect(type("/kick bo") == .kick(QuizFixtures.bo))
        #expect(type("/kick Zed") == nil && ann.message?.text == "Nobody called Zed plays in this quiz.")
        #expect(type("/kick Ann") == nil && ann.message?.text == "You cannot remove yourself; /leave instead.")
        #expect(type("/kick") == nil && ann.message?.text == "/kick needs the player's name, e.g. \"/kick Bo\".")
        var bo = QuizFixtures.screen(try QuizFixtures.view("waiting"), me: QuizFixtures.bo)
        bo.input = "/kick Cy"
        #expect(bo.handle(.enter) == nil && bo.message?.text == "Only the host removes a player; Ann can.")
        #expect(QuizInput.parseScript("kick Mary Ann") == .success(.kick(name: "Mary Ann")))
        #expect(QuizAction.kick(QuizFixtures.bo).name == "kick")
    }

    @Test("In a match the host removes a guest; the removed player's session ends")
    func matchKick() throws {
        let match = try MatchFixtures.waiting(guest: true)
        var ann = MatchFixtures.screen(match)
        #expect(ann.action(for: .kick(name: "gil")) == .kick(MatchFixtures.gil))
        #expect(MatchInput.parseTyped("/kick Gil") == .success(.kick(name: "Gil")))

        var game = MatchGame(screen: MatchFixtures.screen(match, me: MatchFixtures.bo))
        var after = match
        _ = try after.apply(DartsMatch.kick(MatchFixtures.bo), by: MatchFixtures.ann, at: .epoch)
        let step = game.receive(MatchView(after), at: .epoch, mode: .scripted)
        #expect(step.ending == .removed && step.outputs.last == .removed(code: MatchFixtures.code))
        #expect(MatchOutput.removed(code: MatchFixtures.code).jsonLine == #"{"code":"QX7KM","event":"removed"}"#)
        // Another player's removal is news, not the end.
        var ann2 = MatchGame(screen: MatchFixtures.screen(match))
        var without = match
        _ = try without.apply(DartsMatch.kick(MatchFixtures.gil), by: MatchFixtures.ann, at: .epoch)
        #expect(ann2.receive(MatchView(without), at: .epoch, mode: .scripted).ending == nil)
    }

    @Test("In tic-tac-toe, / types a command on the keys-only screen: the host's /kick removes the other player")
    func ticTacToeKick() throws {
        let ann = RoomFixtures.ann, bo = QuizFixtures.bo
        var game = try TicTacToe.create(id: "g1", code: TicTacToeCode(uncheckedRawValue: "1234567"), creator: ann, playerName: "Ann", at: .epoch)
        _ = try game.apply(.join(playerName: "Bo"), by: .user(bo), at: .epoch, in: ())
        var x = TicTacToeScreenState(server: "ws://x/ws", code: "1234567", game: game.publicView, me: ann)
        func type(_ text: String, on screen: inout TicTacToeScreenState) -> TicTacToePlay? {
            for character in "/" + text { #expect(screen.handle(.character(character)) == nil) }
            return screen.handle(.enter)
        }
        #expect(TicTacToeScreen.keys(x).contains { $0.key == "/kick NAME" })
        _ = x.handle(.character("/"))
        _ = x.handle(.character("k"))
        #expect(TicTacToeScreen.text(x, width: 80, height: 20).dropLast().last == "  /k▏  Enter runs · Esc cancels")
        // A typed digit is text, not a mark; Esc drops the command.
        #expect(x.handle(.character("5")) == nil && x.command == "k5")
        #expect(x.handle(.escape) == nil && x.command == nil)
        #expect(type("kick bo", on: &x) == .kick(bo))
        #expect(type("kick Zed", on: &x) == nil && x.message?.text == "Nobody called Zed plays in this game.")
        #expect(type("kick", on: &x) == nil && x.message?.text == "/kick needs the player's name, e.g. \"/kick Bo\".")
        #expect(type("mark 5", on: &x) == nil && x.message?.text.hasPrefix("Unknown command \"/mark 5\"") == true)
        #expect(type("help", on: &x) == nil && x.message?.text == TicTacToeScreenState.helpText)
        var o = TicTacToeScreenState(server: "ws://x/ws", code: "1234567", game: game.publicView, me: bo)
        #expect(!TicTacToeScreen.keys(o).contains { $0.key == "/kick NAME" })
        #expect(type("kick Ann", on: &o) == nil && o.message?.text == "Only the host removes a player; Ann can.")
    }
}
