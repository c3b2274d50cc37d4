import ParlorClient
import ParlorTerminal
import ParlorRules
import ParlorWire
import Testing

/// The room screen as text: what a person would see for given room states, compared line by line.
@Suite("Room screen rendering")
struct RoomScreenTests {
    private func state(_ room: GameRoom?, me: UserID? = RoomFixtures.bo, code: String = "K7Q2MX") -> RoomScreenState {
        var state = RoomScreenState(server: "ws://localhost:8080/ws", code: code, room: room, me: me)
        state.connection = .connected(userId: me ?? RoomFixtures.cy)
        return state
    }

    /// The rendered text with trailing blank lines between body and footer collapsed, for readable
    /// expectations; the full height is checked separately.
    private func screen(_ state: RoomScreenState, width: Int = 72, height: Int = 30) -> [String] {
        let lines = RoomScreen.text(state, width: width, height: height)
        #expect(lines.count == height)
        for line in lines { #expect(TextWidth.of(line) <= width, "\(line) is wider than \(width)") }
        let footer = Array(lines.suffix(2))
        var body = Array(lines.dropLast(2))
        while body.last == "" { body.removeLast() }
        return body + ["…"] + footer
    }

    @Test("Before the start: the big code, the seats, ready and moderator marks, the keys for ready and leave")
    func lobby() throws {
        #expect(screen(state(try RoomFixtures.lobby())) == [
            "Parlor · ws://localhost:8080/ws                         ● connected · v3",
            "",
            "  █   █  █████   ███    ███   █   █  █   █",
            "  █  █       █  █   █  █   █  ██ ██   █ █ ",
            "  ███       █   █ █ █    ██   █ █ █    █  ",
            "  █  █     █    █  █    █     █   █   █ █ ",
            "  █   █    █     ██ █  █████  █   █  █   █",
            "",
            "  Room K7Q2MX · to 201 points · 25¢ a point · 3 of 4 seats",
            "  Waiting to start: 1 of 3 ready",
            "",
            "  Players",
            "  ★ Ann       ✓ ready",
            "    Bo (you)  · not ready",
            "    Cy        · not ready",
            "  ★ moderator   ✓ ready",
            "…",
            "",
            "  [r] ready  [l] leave  [?] help  [q] quit",
        ])
    }

    @Test("The moderator sees start; a ready player can take it back")
    func lobbyKeys() throws {
        let room = try RoomFixtures.lobby(readyBo: true)
        #expect(screen(state(room, me: RoomFixtures.ann)).last == "  [s] start  [x] remove  [l] leave  [?] help  [q] quit")
        #expect(screen(state(room)).last == "  [r] not ready  [l] leave  [?] help  [q] quit")
        #expect(screen(state(room)).contains("    Bo (you)  ✓ ready"))
        #expect(screen(state(room)).contains("  Waiting to start: 2 of 3 ready"))
    }

    @Test("During the game: the score grid with totals, the current round marked and highlighted")
    func scoreGrid() throws {
        let lines = RoomScreen.render(state(try RoomFixtures.inRoundTwo()), width: 72, height: 30)
        #expect(screen(state(try RoomFixtures.inRoundTwo())) == [
            "Parlor · ws://localhost:8080/ws                        ● connected · v11",
            "",
            "  █   █  █████   ███    ███   █   █  █   █",
            "  █  █       █  █   █  █   █  ██ ██   █ █ ",
            "  ███       █   █ █ █    ██   █ █ █    █  ",
            "  █  █     █    █  █    █     █   █   █ █ ",
            "  █   █    █     ██ █  █████  █   █  █   █",
            "",
            "  Room K7Q2MX · to 201 points · 25¢ a point · 3 of 4 seats",
            "  Round 2 of 6",
            "",
            "  Player        R1  [R2]    R3    R4    R5    R6  Total",
            "  ★ Ann         10     ·     ·     ·     ·     ·     10",
            "▸   Bo (you)    25     5     ·     ·     ·     ·     30",
            "    Cy          40     ·     ·     ·     ·     ·     40",
            "…",
            "",
            "  [e] enter score  [l] leave  [?] help  [q] quit",
        ])
        // The current round's column is drawn highlighted, in the header and in every row.
        let highlighted = lines[11...14].map { $0.spans.filter { $0.style == .highlight }.map(\.text) }
        #expect(highlighted == [["  [R2]"], ["     ·"], ["     5"], ["     ·"]])
        #expect(screen(state(try RoomFixtures.inRoundTwo(), me: RoomFixtures.ann)).last
            == " [↑↓]player [e]enter score [n]next round [l]leave [?]help [q]quit")
    }

    @Test("When the game ends: standings and settlement")
    func finished() throws {
        let lines = screen(state(try RoomFixtures.finished()))
        #expect(Array(lines[8...]) == [
            "  Room K7Q2MX · to 201 points · 25¢ a point · 3 of 4 seats",
            "  Game over after round 2",
            "",
            "  Player        R1    R2    R3    R4    R5    R6  Total",
            "  ★ Ann         10     ·     ·     ·     ·     ·     10",
            "    Bo (you)   120    90     ·     ·     ·     ·    210",
            "    Cy          40    10     ·     ·     ·     ·     50",
            "",
            "  Standings",
            "  1. Ann       10   winner",
            "  2. Cy        50",
            "  3. Bo       210",
            "",
            "  Settlement",
            "  Cy pays Ann $10.00",
            "  Bo pays Ann $50.00",
            "…",
            "",
            "  [?] help  [q] quit",
        ])
    }

    @Test("The status line shows reconnecting, and a spectator is told they are watching")
    func statusAndSpectator() throws {
        var watching = state(try RoomFixtures.lobby(), me: UserID("00000000-0000-4000-8000-0000000000ee"))
        watching.connection = .reconnecting(attempt: 2, reason: "the server is restarting or going away")
        let lines = screen(watching)
        #expect(lines[0] == "Parlor · ws://localhost:8080/ws         ◌ reconnecting… (attempt 2) · v3")
        #expect(lines.contains("  Waiting to start: 1 of 3 ready · you are watching"))
        #expect(lines.last == "  [?] help  [q] quit")
    }

    @Test("Entering a score shows what is typed; errors show as sentences")
    func messageLine() throws {
        var entering = state(try RoomFixtures.inRoundTwo())
        _ = entering.handle(.character("e"))
        _ = entering.handle(.character("1"))
        _ = entering.handle(.character("5"))
        #expect(screen(entering, width: 100).dropLast().last
            == "  Score for Bo, round 2: 15▏  Enter submits · Esc cancels · ←/→ round")

        var refused = state(try RoomFixtures.lobby())
        refused.message = RoomScreenState.Message("Only the moderator can start the game.", isError: true)
        #expect(screen(refused).dropLast().last == "  ✗ Only the moderator can start the game.")

        var leaving = state(try RoomFixtures.lobby())
        _ = leaving.handle(.character("l"))
        #expect(screen(leaving).dropLast().last == "  Leave room K7Q2MX? Press y to leave, any other key to stay.")
    }

    @Test("A narrow or short terminal drops the block letters, abbreviates, scrolls rounds, keeps the way out")
    func smallTerminal() throws {
        let room = try RoomFixtures.inRoundTwo()
        let narrow = RoomScreen.text(state(room), width: 40, height: 14)
        #expect(narrow == [
            "● connected · v11",
            "",
            "  K7Q2MX · to 201 · 25¢/pt · 3/4 seats",
            "  Round 2 of 6",
            "",
            "  Player   R1 [R2]   R3   R4   R5 Total",
            "  ★ Ann    10    ·    ·    ·    ·    10",
            "▸   Bo     25    5    ·    ·    ·    30",
            "    Cy     40    ·    ·    ·    ·    40",
            "",
            "",
            "",
            "",
            " [e]enter score [l]leave [?]help [q]quit",
        ])
        let tiny = RoomScreen.text(state(room), width: 20, height: 3)
        #expect(tiny == ["● connected · v11", "", "  [?] help  [q] quit"])
    }

    @Test("Before the room arrives, and after it is deleted")
    func loadingAndDeleted() {
        var loading = state(nil)
        loading.connection = .connecting
        #expect(screen(loading, height: 16).prefix(11) == [
            "Parlor · ws://localhost:8080/ws                            ◌ connecting…",
            "",
            "  █   █  █████   ███    ███   █   █  █   █",
            "  █  █       █  █   █  █   █  ██ ██   █ █ ",
            "  ███       █   █ █ █    ██   █ █ █    █  ",
            "  █  █     █    █  █    █     █   █   █ █ ",
            "  █   █    █     ██ █  █████  █   █  █   █",
            "",
            "  Room K7Q2MX",
            "  Loading the room…",
            "…",
        ])
        var deleted = state(nil)
        deleted.roomDeleted = true
        #expect(screen(deleted).contains("  This room was deleted."))
    }

    @Test("parlor show prints the room alone")
    func printable() throws {
        let lines = RoomScreen.printable(state(try RoomFixtures.inRoundTwo()), width: 72)
        #expect(lines.count == 13)
        #expect(lines[0] == "  █   █  █████   ███    ███   █   █  █   █")
        #expect(Array(lines[6...]) == [
            "  Room K7Q2MX · to 201 points · 25¢ a point · 3 of 4 seats",
            "  Round 2 of 6",
            "",
            "  Player        R1  [R2]    R3    R4    R5    R6  Total",
            "  ★ Ann         10     ·     ·     ·     ·     ·     10",
            "▸   Bo (you)    25     5     ·     ·     ·     ·     30",
            "    Cy          40     ·     ·     ·     ·     ·     40",
        ])
    }

    @Test("Block letters cover the whole code alphabet, five rows of equal width")
    func blockFont() {
        let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
        for character in alphabet {
            let rows = BlockFont.render(String(character))
            #expect(rows.count == 5)
            #expect(rows.allSatisfy { $0.count == 5 }, "\(character)")
            #expect(rows.joined().contains("█"), "\(character) has no glyph")
        }
        let glyphs = alphabet.map { BlockFont.render(String($0)) }
        #expect(Set(glyphs.map { $0.joined(separator: "\n") }).count == alphabet.count, "two characters look the same")
        #expect(BlockFont.width(of: "K7Q2MX") == 40)
    }

    @Test("Money and widths")
    func moneyAndWidth() {
        #expect(Money.perPoint(25) == "25¢")
        #expect(Money.perPoint(150) == "$1.50")
        #expect(Money.dollars(123_456_789) == "$1,234,567.89")
        #expect(Money.dollars(5) == "$0.05")
        #expect(TextWidth.of("李雷") == 4)
        #expect(TextWidth.of("Zoë") == 3)
        #expect(TextWidth.pad("李雷ab", to: 5) == "李雷…")
        #expect(TextWidth.pad("李雷", to: 6) == "李雷  ")
        #expect(TextWidth.fit("Annabelle", width: 5) == "Anna…")
    }
}
