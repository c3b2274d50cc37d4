import ParlorClient
import ParlorRules
@testable import ParlorTerminal
import ParlorWire
import Testing

/// Every screen at 40, 60, 80 and 120 columns, compared as text: nothing wider than the terminal, the
/// way out (`[q] quit`, `[Esc] quit`) always on the keys line, and at 60 the rummy grid keeps R6 and
/// the Total even with long names (it scrolls rounds at 40). docs/TERMINAL.md shows the 60-column ones.
@Suite("Screens at 40, 60, 80 and 120 columns")
struct NarrowScreenTests {
    private func check(_ lines: [String], width: Int, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for line in lines { #expect(TextWidth.of(line) <= width, "\(line) is wider than \(width)", sourceLocation: sourceLocation) }
        #expect(lines.last?.hasSuffix("quit") == true, sourceLocation: sourceLocation)
        #expect(lines == expected, sourceLocation: sourceLocation)
    }

    static func room(width: Int) throws -> [String] {
        var room = RoomScreenState(server: "ws://localhost:8080/ws", code: "K7Q2MX", room: try NarrowFixtures.longNames(), me: RoomFixtures.bo)
        room.connection = .connected(userId: RoomFixtures.bo)
        room.presence = PresenceView(players: [
            PresenceView.Player(userId: RoomFixtures.ann, online: true), PresenceView.Player(userId: RoomFixtures.bo, online: true),
            PresenceView.Player(userId: RoomFixtures.cy, online: false),
        ])
        return RoomScreen.text(room, width: width, height: 16)
    }

    static func lobby(width: Int) throws -> [String] {
        LobbyScreen.text(LobbyFixtures.screen(try LobbyFixtures.inRound()), width: width, height: 20)
    }

    static func match(width: Int) throws -> [String] {
        MatchScreen.text(MatchFixtures.screen(try MatchFixtures.playing(["T20 T20 T20", "100", "T20 T20 T20", "S20 S20 S20"])), width: width, height: 24)
    }

    static func quiz(width: Int) throws -> [String] {
        QuizScreen.text(QuizFixtures.screen(try QuizFixtures.view("revealing")), width: width, height: 18)
    }

    @Test("The rummy room in round 6, long names, presence dots at 40 columns")
    func room40() throws {
        check(try Self.room(width: 40), width: 40, [
        "● connected · v27",
        "",
        "  K7Q2MX · to 350 · 25¢/pt · 3/4 seats",
        "  Round 6 of 6",
        "",
        "    Player       R3   R4   R5 [R6] Total",
        "  ● ★ Annabel…   35    5   60    ·   110",
        "▸ ●   Bo Kris…    0   15   20    9   109",
        "  ○   Cyrano …    7    0   30    ·   154",
        "",
        "",
        "",
        "",
        "",
        "",
        " [e]enter score [l]leave [?]help [q]quit",
        ])
    }

    @Test("The rummy room in round 6, long names, presence dots at 60 columns")
    func room60() throws {
        check(try Self.room(width: 60), width: 60, [
        "Parlor · ws://localhost:8080/ws            ● connected · v27",
        "",
        "  Room K7Q2MX · to 350 points · 25¢ a point · 3 of 4 seats",
        "  Round 6 of 6",
        "",
        "    Player                 R1   R2   R3   R4   R5 [R6] Total",
        "  ● ★ Annabelle Fontaine   10    0   35    5   60    ·   110",
        "▸ ●   Bo Kristiansen       25   40    0   15   20    9   109",
        "  ○   Cyrano de Bergerac  105   12    7    0   30    ·   154",
        "",
        "",
        "",
        "",
        "",
        "",
        "  [e] enter score  [l] leave  [?] help  [q] quit",
        ])
    }

    @Test("The rummy room in round 6, long names, presence dots at 80 columns")
    func room80() throws {
        check(try Self.room(width: 80), width: 80, [
        "Parlor · ws://localhost:8080/ws                                ● connected · v27",
        "",
        "  Room K7Q2MX · to 350 points · 25¢ a point · 3 of 4 seats",
        "  Round 6 of 6",
        "",
        "    Player                    R1    R2    R3    R4    R5  [R6]  Total",
        "  ● ★ Annabelle Fontaine      10     0    35     5    60     ·    110",
        "▸ ●   Bo Kristiansen (you)    25    40     0    15    20     9    109",
        "  ○   Cyrano de Bergerac     105    12     7     0    30     ·    154",
        "",
        "",
        "",
        "",
        "",
        "",
        "  [e] enter score  [l] leave  [?] help  [q] quit",
        ])
    }

    @Test("The rummy room in round 6, long names, presence dots at 120 columns")
    func room120() throws {
        check(try Self.room(width: 120), width: 120, [
        "Parlor · ws://localhost:8080/ws                                                                        ● connected · v27",
        "",
        "  Room K7Q2MX · to 350 points · 25¢ a point · 3 of 4 seats",
        "  Round 6 of 6",
        "",
        "    Player                    R1    R2    R3    R4    R5  [R6]  Total",
        "  ● ★ Annabelle Fontaine      10     0    35     5    60     ·    110",
        "▸ ●   Bo Kristiansen (you)    25    40     0    15    20     9    109",
        "  ○   Cyrano de Bergerac     105    12     7     0    30     ·    154",
        "",
        "",
        "",
        "",
        "",
        "",
        "  [e] enter score  [l] leave  [?] help  [q] quit",
        ])
    }

    @Test("A word lobby during a round at 40 columns")
    func lobby40() throws {
        check(try Self.lobby(width: 40), width: 40, [
        "● connected · v8",
        "",
        "  Lobby GDTS · 3 of 12 players",
        "  0:23 left · Round 1 of 5",
        "  Greek Letters Sprint",
        "",
        "  Players:  🦊 Ann ★ 0  🐼 Bo (you) 0",
        "  🐸 Cy 0",
        "",
        "  Category: Greek Letters Sprint",
        "",
        "  Your words: 1 of 2 accepted",
        "  ✓ alpha   ✗ omegas",
        "  \"omegas\" is not one of the accepted a…",
        "",
        "",
        "",
        "",
        "  > ▏",
        "  [/leave] leave  [Esc] quit",
        ])
    }

    @Test("A word lobby during a round at 60 columns")
    func lobby60() throws {
        check(try Self.lobby(width: 60), width: 60, [
        "Parlor · ws://localhost:8080/ws             ● connected · v8",
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
        "  Name as many letters of the Greek alphabet as you can",
        "  before time runs out. Spelling counts; capitals do not.",
        "",
        "  Your words: 1 of 2 accepted",
        "  ✓ alpha   ✗ omegas",
        "  \"omegas\" is not one of the accepted answers.",
        "",
        "  > ▏",
        "  [Enter] submit a word  [/leave] leave  [Esc] quit",
        ])
    }

    @Test("A word lobby during a round at 80 columns")
    func lobby80() throws {
        check(try Self.lobby(width: 80), width: 80, [
        "Parlor · ws://localhost:8080/ws                                 ● connected · v8",
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
        "  Name as many letters of the Greek alphabet as you can before time runs out.",
        "  Spelling counts; capitals do not.",
        "",
        "  Your words: 1 of 2 accepted",
        "  ✓ alpha   ✗ omegas",
        "  \"omegas\" is not one of the accepted answers.",
        "",
        "  > ▏",
        "  [Enter] submit a word  [/leave] leave  [Esc] quit",
        ])
    }

    @Test("A word lobby during a round at 120 columns")
    func lobby120() throws {
        check(try Self.lobby(width: 120), width: 120, [
        "Parlor · ws://localhost:8080/ws                                                                         ● connected · v8",
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
        "  Name as many letters of the Greek alphabet as you can before time runs out. Spelling counts; capitals do not.",
        "",
        "  Your words: 1 of 2 accepted",
        "  ✓ alpha   ✗ omegas",
        "  \"omegas\" is not one of the accepted answers.",
        "",
        "",
        "  > ▏",
        "  [Enter] submit a word  [/leave] leave  [Esc] quit",
        ])
    }

    @Test("A darts leg under way at 40 columns")
    func match40() throws {
        check(try Self.match(width: 40), width: 40, [
        "● connected · v7",
        "",
        "  Match QX7KM · 501 · straight in",
        "  double out · first to 1 leg",
        "  Leg 1 · your throw",
        "",
        "▶ Ann (host, you)  141  Legs 0  avg 180…",
        "  Bo               341  Legs 0  avg 80",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "  Ann > ▏",
        "  [/leave] leave  [Esc] quit",
        ])
    }

    @Test("A darts leg under way at 60 columns")
    func match60() throws {
        check(try Self.match(width: 60), width: 60, [
        "Parlor · ws://localhost:8080/ws             ● connected · v7",
        "",
        "  Match QX7KM · 501 · straight in · double out",
        "  first to 1 leg",
        "  Leg 1 · your throw",
        "",
        "▶ Ann (host, you)            Bo",
        "    █    █   █    █          ████   █   █    █  ",
        "   ██    █   █   ██              █  █   █   ██  ",
        "    █    █████    █           ███   █████    █  ",
        "    █        █    █              █      █    █  ",
        "   ███       █   ███         ████       █   ███ ",
        "  Legs 0                     Legs 0",
        "  Avg 180 · 1st 9 180        Avg 80 · 1st 9 80",
        "  Out: T20 T19 D12           Last: S20 S20 S20 = 60",
        "  180s 2 · 140+ 0 · 100+ 0   180s 0 · 140+ 0 · 100+ 1",
        "",
        "",
        "",
        "",
        "",
        "",
        "  Ann > ▏",
        "  [↑] edit last visit  [/leave] leave  [Esc] quit",
        ])
    }

    @Test("A darts leg under way at 80 columns")
    func match80() throws {
        check(try Self.match(width: 80), width: 80, [
        "Parlor · ws://localhost:8080/ws                                 ● connected · v7",
        "",
        "  Match QX7KM · 501 · straight in · double out · first to 1 leg",
        "  Leg 1 · your throw",
        "",
        "▶ Ann (host, you)            Bo",
        "    █    █   █    █          ████   █   █    █  ",
        "   ██    █   █   ██              █  █   █   ██  ",
        "    █    █████    █           ███   █████    █  ",
        "    █        █    █              █      █    █  ",
        "   ███       █   ███         ████       █   ███ ",
        "  Legs 0                     Legs 0",
        "  Avg 180 · 1st 9 180        Avg 80 · 1st 9 80",
        "  Out: T20 T19 D12           Last: S20 S20 S20 = 60",
        "  180s 2 · 140+ 0 · 100+ 0   180s 0 · 140+ 0 · 100+ 1",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "  Ann > ▏",
        "  [Enter] record your visit  [↑] edit last visit  [/leave] leave  [Esc] quit",
        ])
    }

    @Test("A darts leg under way at 120 columns")
    func match120() throws {
        check(try Self.match(width: 120), width: 120, [
        "Parlor · ws://localhost:8080/ws                                                                         ● connected · v7",
        "",
        "  Match QX7KM · 501 · straight in · double out · first to 1 leg",
        "  Leg 1 · your throw",
        "",
        "▶ Ann (host, you)            Bo",
        "    █    █   █    █          ████   █   █    █  ",
        "   ██    █   █   ██              █  █   █   ██  ",
        "    █    █████    █           ███   █████    █  ",
        "    █        █    █              █      █    █  ",
        "   ███       █   ███         ████       █   ███ ",
        "  Legs 0                     Legs 0",
        "  Avg 180 · 1st 9 180        Avg 80 · 1st 9 80",
        "  Out: T20 T19 D12           Last: S20 S20 S20 = 60",
        "  180s 2 · 140+ 0 · 100+ 0   180s 0 · 140+ 0 · 100+ 1",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "  Ann > ▏",
        "  [Enter] record your visit  [↑] edit last visit  [/leave] leave  [Esc] quit",
        ])
    }

    @Test("A photo quiz revealing a photo at 40 columns")
    func quiz40() throws {
        check(try Self.quiz(width: 40), width: 40, [
        "● connected · v5",
        "",
        "  Quiz QWERT · slow reveal",
        "  20 s to guess · 5 photos",
        "  Photo 1 of 2 · Ann's photo",
        "  2 of 36 tiles · 0:16 to guess",
        "",
        "  ▀▀░░░░░░░░░░",
        "  ░░▀▀░░░░░░░░",
        "  ░░░░░░░░░░░░",
        "  ░░░░░░░░░░░░",
        "  ░░░░░░░░░░░░",
        "  ░░░░░░░░░░░░",
        "",
        "  · Ann 0  … Bo 0  … Cy 0",
        "",
        "  where? > ▏",
        "  [/leave] leave  [Esc] quit",
        ])
    }

    @Test("A photo quiz revealing a photo at 60 columns")
    func quiz60() throws {
        check(try Self.quiz(width: 60), width: 60, [
        "Parlor · ws://localhost:8080/ws             ● connected · v5",
        "",
        "  Quiz QWERT · slow reveal · 20 s to guess · 5 photos",
        "  Photo 1 of 2 · Ann's photo · 2 of 36 tiles · 0:16 to guess",
        "",
        "  ▀▀░░░░░░░░░░",
        "  ░░▀▀░░░░░░░░",
        "  ░░░░░░░░░░░░",
        "  ░░░░░░░░░░░░",
        "  ░░░░░░░░░░░░",
        "  ░░░░░░░░░░░░",
        "",
        "  · Ann 0  … Bo 0  … Cy 0",
        "",
        "",
        "",
        "  where? > ▏",
        " [Enter]guess: lat, lon or a place [/leave]leave [Esc]quit",
        ])
    }

    @Test("A photo quiz revealing a photo at 80 columns")
    func quiz80() throws {
        check(try Self.quiz(width: 80), width: 80, [
        "Parlor · ws://localhost:8080/ws                                 ● connected · v5",
        "",
        "  Quiz QWERT · slow reveal · 20 s to guess · 5 photos",
        "  Photo 1 of 2 · Ann's photo · 2 of 36 tiles · 0:16 to guess",
        "",
        "  ▀▀░░░░░░░░░░",
        "  ░░▀▀░░░░░░░░",
        "  ░░░░░░░░░░░░",
        "  ░░░░░░░░░░░░",
        "  ░░░░░░░░░░░░",
        "  ░░░░░░░░░░░░",
        "",
        "  · Ann 0  … Bo 0  … Cy 0",
        "",
        "",
        "",
        "  where? > ▏",
        "  [Enter] guess: lat, lon or a place  [/leave] leave  [Esc] quit",
        ])
    }

    @Test("A photo quiz revealing a photo at 120 columns")
    func quiz120() throws {
        check(try Self.quiz(width: 120), width: 120, [
        "Parlor · ws://localhost:8080/ws                                                                         ● connected · v5",
        "",
        "  Quiz QWERT · slow reveal · 20 s to guess · 5 photos",
        "  Photo 1 of 2 · Ann's photo · 2 of 36 tiles · 0:16 to guess",
        "",
        "  ▀▀░░░░░░░░░░",
        "  ░░▀▀░░░░░░░░",
        "  ░░░░░░░░░░░░",
        "  ░░░░░░░░░░░░",
        "  ░░░░░░░░░░░░",
        "  ░░░░░░░░░░░░",
        "",
        "  · Ann 0  … Bo 0  … Cy 0",
        "",
        "",
        "",
        "  where? > ▏",
        "  [Enter] guess: lat, lon or a place  [/leave] leave  [Esc] quit",
        ])
    }
}
