import ParlorClient
import ParlorRules
@testable import ParlorTerminal
import ParlorWire
import Testing

/// `●`/`○` beside each name on every game's screen once the stream has said who is connected: Ann is
/// here, Bo is away, and a player the presence does not name gets a blank, so the names still line up.
@Suite("Presence dots")
struct PresenceDotTests {
    static let annHereBoAway = PresenceView(players: [
        PresenceView.Player(userId: RoomFixtures.ann, online: true), PresenceView.Player(userId: RoomFixtures.bo, online: false),
    ])

    /// The spans of the first line whose text contains `text`.
    static func spans(of text: String, in lines: [ScreenLine]) throws -> [Span] {
        try #require(lines.first { $0.text.contains(text) }, "no line with \(text)").spans
    }

    @Test("Rummy: the seats before the start and the score grid")
    func room() throws {
        var state = RoomScreenState(server: "ws://localhost:8080/ws", code: "K7Q2MX", room: try RoomFixtures.lobby(), me: RoomFixtures.bo)
        state.connection = .connected(userId: RoomFixtures.bo)
        let before = RoomScreen.text(state, width: 72, height: 30)
        state.presence = Self.annHereBoAway
        let lines = RoomScreen.text(state, width: 72, height: 30)
        #expect(!before.contains { $0.contains("●  ") || $0.contains("○") }, "no dots before the server said")
        #expect(lines.contains("  ● ★ Ann       ✓ ready"))
        #expect(lines.contains("  ○   Bo (you)  · not ready"))
        #expect(lines.contains("      Cy        · not ready"))
        let rendered = RoomScreen.render(state, width: 72, height: 30)
        #expect(try Self.spans(of: "Ann", in: rendered).contains(Span("●", .good)))
        #expect(try Self.spans(of: "Bo (you)", in: rendered).contains(Span("○", .dim)))

        state.room = try RoomFixtures.inRoundTwo()
        let grid = RoomScreen.text(state, width: 72, height: 30)
        let header = try #require(grid.firstIndex { $0.contains("Player") && $0.contains("Total") })
        #expect(grid[header].hasPrefix("    Player"))
        #expect(grid[header + 1].hasPrefix("  ● ★ Ann"))
        #expect(grid[header + 2].hasPrefix("▸ ○   Bo (you)") || grid[header + 2].hasPrefix("  ○   Bo (you)"))
    }

    @Test("Word lobby: the colour swatch is the dot, hollow when away")
    func lobby() throws {
        var state = LobbyFixtures.screen(try LobbyFixtures.open())
        state.presence = Self.annHereBoAway
        let lines = LobbyScreen.text(state, width: 72, height: 30)
        #expect(lines.contains("  ● 🦊 Ann ★        0"))
        #expect(lines.contains("  ○ 🐼 Bo (you)     0"))
        let bo = try Self.spans(of: "Bo (you)", in: LobbyScreen.render(state, width: 72, height: 30))
        #expect(bo.first { $0.text == "○" }?.style == .color(PlayerLook.colors[8]))
    }

    @Test("Darts: beside each name on the cards and on the short scoreboard")
    func match() throws {
        var state = MatchFixtures.screen(try MatchFixtures.waiting(guest: true))
        state.presence = PresenceView(players: [
            PresenceView.Player(userId: MatchFixtures.ann, online: true), PresenceView.Player(userId: MatchFixtures.bo, online: false),
        ])
        let lines = MatchScreen.text(state, width: 90, height: 34)
        #expect(lines.contains { $0.contains("● Ann (host, you)") && $0.contains("○ Bo") && $0.contains("   Gil (guest)") })
        let playing = try MatchFixtures.playing(["T20 T20 T20", "100"])
        state.match = MatchView(playing)
        let short = MatchScreen.text(state, width: 90, height: 12)
        #expect(short.contains { $0.hasPrefix("▶ ● Ann") || $0.hasPrefix("  ● Ann") })
        #expect(short.contains { $0.hasPrefix("  ○ Bo") || $0.hasPrefix("▶ ○ Bo") })
    }

    @Test("Photo quiz: the players while they gather, and who has guessed")
    func quiz() throws {
        var state = QuizFixtures.screen(try QuizFixtures.view("waiting"))
        state.presence = PresenceView(players: [
            PresenceView.Player(userId: QuizFixtures.ann, online: true), PresenceView.Player(userId: QuizFixtures.bo, online: false),
        ])
        let lines = QuizScreen.text(state, width: 72, height: 40)
        #expect(lines.contains { $0.hasPrefix("  ● Ann (host)") })
        #expect(lines.contains { $0.hasPrefix("  ○ Bo (you)") })
        state = QuizFixtures.screen(try QuizFixtures.view("revealing", guessed: true))
        state.presence = PresenceView(players: [PresenceView.Player(userId: QuizFixtures.ann, online: false)])
        let revealing = QuizScreen.text(state, width: 72, height: 40)
        #expect(revealing.contains { $0.contains("○ Ann") })
    }
}
