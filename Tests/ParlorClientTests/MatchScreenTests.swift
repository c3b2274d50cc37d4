import Foundation
import ParlorClient
import ParlorRules
@testable import ParlorTerminal
import ParlorWire
import Testing

/// The darts scoreboard as text: what a person sees while players gather, during a leg, when it is
/// short of rows, after the finish, and what typing does.
@Suite("Darts scoreboard")
struct MatchScreenTests {
    @Test("While players gather: the code in block letters, the rules, the host's keys")
    func waiting() throws {
        let lines = MatchScreen.text(MatchFixtures.screen(try MatchFixtures.waiting(guest: true)), width: 90, height: 34)
        #expect(lines.count == 34 && lines.allSatisfy { TextWidth.of($0) <= 90 })
        #expect(lines.contains { $0.contains("█") })
        #expect(lines.contains("  Match QX7KM · 501 · straight in · double out · first to 1 leg"))
        #expect(lines.contains("  3 of 4 players · You start the match: type /start and press Enter."))
        #expect(lines.contains { $0.contains("Ann (host, you)") && $0.contains("Bo") && $0.contains("Gil (guest)") })
        #expect(lines.last == "  [/start] start  [/guest NAME] add a guest  [/leave] leave  [Esc] quit")
        let bo = MatchScreen.text(MatchFixtures.screen(try MatchFixtures.waiting(), me: MatchFixtures.bo), width: 90, height: 34)
        #expect(bo.contains("  2 of 4 players · Waiting for Ann to start."))
    }

    @Test("During a leg: scores in block digits, the finish under the player to throw, averages, the prompt")
    func playing() throws {
        let match = try MatchFixtures.playing(["T20 T20 T20", "100", "T20 T20 T20", "S20 S20 S20"])
        let state = MatchFixtures.screen(match)
        let lines = MatchScreen.text(state, width: 90, height: 30)
        #expect(lines.contains("  Leg 1 · your throw"))
        #expect(lines.contains { $0.hasPrefix("▶ Ann (host, you)") && $0.contains("  Bo") })
        // 141 and 341 in block digits: the rows of "1" and "4" side by side.
        let digits = BlockFont.render("141")
        #expect(lines.contains { $0.hasPrefix("  " + digits[0]) })
        #expect(lines.contains { $0.contains("Out: T20 T19 D12") && $0.contains("Last: S20 S20 S20 = 60") })
        #expect(lines.contains { $0.contains("Avg 180 · 1st 9 180") && $0.contains("Avg 80 · 1st 9 80") })
        #expect(lines.contains { $0.contains("180s 2 · 140+ 0 · 100+ 0") })
        #expect(lines[lines.count - 2].hasPrefix("  Ann > "))
        #expect(lines.last == "  [Enter] record your visit  [↑] edit last visit  [/leave] leave  [Esc] quit")
        // Bo watches Ann throw: no prompt of his own, no edit (the host entered it).
        let bo = MatchScreen.text(MatchFixtures.screen(match, me: MatchFixtures.bo), width: 90, height: 30)
        #expect(bo.contains("  Leg 1 · Ann to throw") && bo.last == "  [/leave] leave  [Esc] quit")
    }

    @Test("Short of rows, each player folds into one line; a spectator is told so")
    func compact() throws {
        let match = try MatchFixtures.playing(["T20 T20 T20", "100"], guest: true)
        var state = MatchFixtures.screen(match, me: UserID("00000000-0000-4000-8000-000000000099")!)
        state.me = UserID("00000000-0000-4000-8000-000000000099")
        let lines = MatchScreen.text(state, width: 80, height: 12)
        #expect(lines.count == 12)
        #expect(lines.contains("  Leg 1 · Gil to throw · you are watching"))
        #expect(lines.contains { $0.hasPrefix("  Ann (host)") && $0.contains("321") && $0.contains("Legs 0") })
        #expect(lines.contains { $0.hasPrefix("▶ Gil (guest)") && $0.contains("501") })
    }

    @Test("After the finish: the winner")
    func finished() throws {
        let match = try MatchFixtures.playing(["T20 T20 T20", "0", "T20 T20 T20", "0", "T20 T19 D12"])
        let lines = MatchScreen.text(MatchFixtures.screen(match, me: MatchFixtures.bo), width: 90, height: 30)
        #expect(lines.contains("  Ann wins the match!"))
        #expect(lines.contains { $0.contains("Ann (host) ★ winner") })
        #expect(lines.contains { $0.contains("Last: T20 T19 D12 out!") })
    }

    @Test("Keys: a typed visit goes to the player to throw; ↑ edits the last visit; Esc gives up the edit, then quits")
    func keys() throws {
        var state = MatchFixtures.screen(try MatchFixtures.playing(["T20 T20 T20", "100"]))
        for character in "t20 t19 d12x" { _ = state.handle(.character(character)) }
        _ = state.handle(.backspace)
        #expect(state.handle(.enter) == .visit(player: MatchFixtures.ann, darts: ["t20", "t19", "d12"], total: nil))
        for character in "45" { _ = state.handle(.character(character)) }
        #expect(state.handle(.enter) == .visit(player: MatchFixtures.ann, darts: nil, total: 45))
        // ↑ loads Bo's last visit (a total, entered by the host) for replacing.
        _ = state.handle(.up)
        #expect(state.editing == 2 && state.input == "100")
        #expect(MatchScreen.text(state, width: 90, height: 30).last == "  [Enter] replace visit #2  [Esc] keep it")
        #expect(MatchScreen.text(state, width: 90, height: 30).dropLast().last?.hasPrefix("  edit #2 > 100") == true)
        _ = state.handle(.backspace)
        _ = state.handle(.backspace)
        _ = state.handle(.backspace)
        for character in "T20 T20 S5" { _ = state.handle(.character(character)) }
        #expect(state.handle(.enter) == .edit(visit: 2, darts: ["T20", "T20", "S5"], total: nil))
        #expect(state.editing == nil)
        _ = state.handle(.up)
        #expect(state.handle(.escape) == nil && state.editing == nil && state.input == "")
        #expect(state.handle(.escape) == .quit)
        for character in "/guest Gil" { _ = state.handle(.character(character)) }
        #expect(state.handle(.enter) == .addGuest(name: "Gil"))
        for character in "/dance" { _ = state.handle(.character(character)) }
        #expect(state.handle(.enter) == nil && state.message?.isError == true)
    }

    @Test("Nothing to edit, or not yours to edit; nobody to throw before the start")
    func refusedKeys() throws {
        var bo = MatchFixtures.screen(try MatchFixtures.playing(["T20 T20 T20"]), me: MatchFixtures.bo)
        _ = bo.handle(.up)
        #expect(bo.editing == nil && bo.message?.text == "Only the host or whoever entered it can edit the last visit.")
        var waiting = MatchFixtures.screen(try MatchFixtures.waiting())
        _ = waiting.handle(.up)
        #expect(waiting.message?.text == "There is no visit to edit.")
        for character in "T20 T20 T20" { _ = waiting.handle(.character(character)) }
        #expect(waiting.handle(.enter) == nil && waiting.message?.text == "The match has not started yet.")
    }

    @Test("An edit in progress ends when its visit is no longer the last")
    func staleEdit() throws {
        var state = MatchFixtures.screen(try MatchFixtures.playing(["T20 T20 T20"]))
        _ = state.handle(.up)
        #expect(state.editing == 1)
        #expect(state.receive(MatchView(try MatchFixtures.playing(["T20 T20 T20", "60"]))))
        #expect(state.editing == nil && state.input == "")
    }
}
