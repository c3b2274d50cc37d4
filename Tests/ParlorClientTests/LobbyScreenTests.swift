import ParlorClient
import ParlorRules
import ParlorTerminal
import ParlorWire
import Testing

/// The lobby screen as text: what a person would see for given lobby states, compared line by line.
@Suite("Lobby screen rendering")
struct LobbyScreenTests {
    /// The rendered text with the blank rows between body and footer collapsed into "…", for readable
    /// expectations; the full height and the width of every line are checked here.
    private func screen(_ state: LobbyScreenState, width: Int = 72, height: Int = 40) -> [String] {
        let lines = LobbyScreen.text(state, width: width, height: height)
        #expect(lines.count == height)
        for line in lines { #expect(TextWidth.of(line) <= width, "\(line) is wider than \(width)") }
        let footer = Array(lines.suffix(3))
        var body = Array(lines.dropLast(3))
        while body.last == "" { body.removeLast() }
        return body + ["…"] + footer
    }

    private let bigCode = [
        "   ████  ████   █████   ████",
        "  █      █   █    █    █    ",
        "  █  ██  █   █    █     ███ ",
        "  █   █  █   █    █        █",
        "   ████  ████     █    ████ ",
    ]

    @Test("Open, waiting: the big code, the players with emoji and scores, who starts, the keys")
    func openLobby() throws {
        #expect(screen(LobbyFixtures.screen(try LobbyFixtures.open())) == [
            "Parlor · ws://localhost:8080/ws                         ● connected · v3",
            "",
        ] + bigCode + [
            "",
            "  Lobby GDTS · 3 of 12 players",
            "  Waiting for Ann to start the first round.",
            "",
            "  Players       Score",
            "  ● 🦊 Ann ★        0",
            "  ● 🐼 Bo (you)     0",
            "  ● 🐸 Cy           0",
            "…",
            "",
            "  > ▏",
            "  [/leave] leave  [Esc] quit",
        ])
    }

    @Test("The creator is told to type /start, and the keys line says how")
    func creatorWaiting() throws {
        let lines = screen(LobbyFixtures.screen(try LobbyFixtures.open(), me: LobbyFixtures.ann))
        #expect(lines.contains("  You start the first round: type /start and press Enter."))
        #expect(lines.contains("  ● 🦊 Ann ★ (you)     0"))
        #expect(lines.last == "  [/start] next game  [/start ID] that game  [/leave] leave  [Esc] quit")
    }

    @Test("Players are drawn in their colour: the swatch carries the palette style")
    func colours() throws {
        let lines = LobbyScreen.render(LobbyFixtures.screen(try LobbyFixtures.open()), width: 72, height: 40)
        let bo = try #require(lines.first { $0.text.contains("Bo (you)") })
        #expect(bo.spans.first { $0.text == PlayerLook.swatch }?.style == .color(PlayerLook.colors[8]))
        #expect(Set(PlayerLook.emoji).count == 64)
        for emoji in PlayerLook.emoji { #expect(TextWidth.of(emoji) == 2, "\(emoji) is not two columns wide") }
        #expect(Set(PlayerLook.colors).count == 16)
    }

    @Test("During a round: the countdown on the server's clock, the rule, the instructions, your words with verdicts")
    func duringRound() throws {
        // The device's clock is two minutes behind the server's; the countdown follows the server.
        let state = LobbyFixtures.screen(try LobbyFixtures.inRound(), secondsIn: 7, skew: 120_000)
        #expect(screen(state) == [
            "Parlor · ws://localhost:8080/ws                         ● connected · v8",
            "",
        ] + bigCode + [
            "",
            "  Lobby GDTS · 3 of 12 players",
            "  0:23 left · Round 1 of 5 · Greek Letters Sprint",
            "",
            "  Players       Score",
            "  ● 🦊 Ann ★        0   2 words",
            "  ● 🐼 Bo (you)     0   2 words",
            "  ● 🐸 Cy           0   0 words",
            "",
            "  Category: Greek Letters Sprint",
            "  Name as many letters of the Greek alphabet as you can before time",
            "  runs out. Spelling counts; capitals do not.",
            "",
            "  Your words: 1 of 2 accepted",
            "  ✓ alpha   ✗ omegas",
            "  \"omegas\" is not one of the accepted answers.",
            "…",
            "",
            "  > ▏",
            "  [Enter] submit a word  [/leave] leave  [Esc] quit",
        ])
    }

    @Test("The countdown ticks with the device's clock, warns in the last seconds and then says time is up")
    func countdown() throws {
        var state = LobbyFixtures.screen(try LobbyFixtures.inRound(), secondsIn: 7, skew: -3_000)
        #expect(state.millisecondsLeft == 23_000)
        state.now = state.now.adding(milliseconds: 1_000)
        #expect(screen(state)[9] == "  0:22 left · Round 1 of 5 · Greek Letters Sprint")
        state.now = state.now.adding(milliseconds: 14_500)
        let hurry = LobbyScreen.render(state, width: 72, height: 40)[9]
        #expect(hurry.text == "  0:08 left · Round 1 of 5 · Greek Letters Sprint")
        #expect(hurry.spans.contains(Span("0:08 left", .warning)))
        state.now = state.now.adding(milliseconds: 60_000)
        #expect(screen(state)[9] == "  Time is up; scoring… · Round 1 of 5 · Greek Letters Sprint")
        #expect(Countdown.text(61_001) == "1:02")
        #expect(Countdown.text(0) == "0:00")
    }

    @Test("A word game states its rule: the letter and where it goes")
    func wordRule() throws {
        let lines = screen(LobbyFixtures.screen(try LobbyFixtures.inRound(LobbyFixtures.startsWithP)))
        #expect(lines.contains("  Rule: words starting with P"))
        #expect(lines.contains("  ✗ alpha   ✗ omegas"))
        #expect(lines.contains("  \"omegas\" does not start with \"P\"."))
    }

    @Test("After the round: everybody's words with their points, each player's round and total")
    func results() throws {
        #expect(screen(LobbyFixtures.screen(try LobbyFixtures.afterRound(), secondsIn: 31)) == [
            "Parlor · ws://localhost:8080/ws                         ● connected · v9",
            "",
        ] + bigCode + [
            "",
            "  Lobby GDTS · 3 of 12 players",
            "  Waiting for Ann to start round 2.",
            "",
            "  Players       Score",
            "  ● 🦊 Ann ★        3",
            "  ● 🐼 Bo (you)     1",
            "  ● 🐸 Cy           0",
            "",
            "  Round 1 results · Greek Letters Sprint",
            "  ● 🦊 Ann ★      +3   total 3",
            "       ✓ alpha +1   ✓ Beta +2",
            "  ● 🐼 Bo (you)   +1   total 1",
            "       ✓ alpha +1   ✗ omegas",
            "  ● 🐸 Cy         +0   total 0",
            "       no words",
            "…",
            "",
            "  > ▏",
            "  [/leave] leave  [Esc] quit",
        ])
    }

    @Test("A narrow, short terminal: no block code, the summary broken between facts, the players on one line, the way out kept")
    func narrow() throws {
        #expect(LobbyScreen.text(LobbyFixtures.screen(try LobbyFixtures.inRound()), width: 34, height: 14) == [
            "● connected · v8",
            "  Lobby GDTS · 3 of 12 players",
            "  0:23 left · Round 1 of 5",
            "  Greek Letters Sprint",
            "  Players:  🦊 Ann ★ 0",
            "  🐼 Bo (you) 0  🐸 Cy 0",
            "  Category: Greek Letters Sprint",
            "  Your words: 1 of 2 accepted",
            "  ✓ alpha   ✗ omegas",
            "  \"omegas\" is not one of the acce…",
            "",
            "",
            "  > ▏",
            "  [/leave] leave  [Esc] quit",
        ])
    }

    @Test("A long list of your words keeps the newest in view")
    func manyWords() throws {
        var lobby = try LobbyFixtures.open()
        _ = try lobby.startGame(.game(LobbyFixtures.greek), by: LobbyFixtures.ann, at: LobbyFixtures.start)
        for index in 1...40 {
            _ = try lobby.submitWord("w\(index)", by: LobbyFixtures.bo, at: LobbyFixtures.start, wordList: SetWordList([]))
        }
        // Eight columns of five rows and the newest refusal's reason; the last two rows and the reason fit.
        let lines = LobbyScreen.text(LobbyFixtures.screen(lobby), width: 60, height: 13)
        #expect(lines.contains("  … 3 earlier"))
        #expect(lines.contains { $0.hasPrefix("  ✗ w33") && $0.hasSuffix("✗ w40") })
        #expect(lines.contains("  \"w40\" is not one of the accepted answers."))
        #expect(!lines.contains { $0.contains("✗ w17 ") })
    }

    @Test("What is typed shows on the input line, its end in view when long; an unknown /command is explained")
    func typing() throws {
        var state = LobbyFixtures.screen(try LobbyFixtures.inRound())
        for character in "gamma" { #expect(state.handle(.character(character)) == nil) }
        #expect(screen(state).suffix(2).first == "  > gamma▏")
        state.input = String(repeating: "x", count: 40) + "end"
        #expect(LobbyScreen.text(state, width: 20, height: 10)[8] == "  > …xxxxxxxxxxxend▏")
        state.input = "/dance"
        #expect(state.handle(.enter) == nil)
        #expect(state.message?.text == "Unknown command \"/dance\"; use /start [GAMEID], /kick NAME, /rematch, /leave or /quit.")
        #expect(screen(state).suffix(3).first?.hasPrefix("  ✗ Unknown command \"/dance\"; use /start [GAMEID], /kick NAME") == true)
    }
}
