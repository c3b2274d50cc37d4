import Foundation
import ParlorClient
import ParlorRules
import ParlorWire
import Testing

@testable import ParlorTerminal

/// `parlor replay` draws every game's own screen for a recorded view — the body its live screen shows
/// between the status line and the keys — instead of the step's action: rummy's score grid, the word
/// lobby (a player's own words only to that player), the quiz (the answer only once revealed, the
/// countdown as it stood at the step) and tic-tac-toe's board.
@Suite("Replay screens of each game")
struct ReplayDrawingTests {
    /// Someone who watches a replay of a game they did not play.
    static let stranger = UserID("00000000-0000-4000-8000-0000000000ff")!
    static let width = 80
    static let rows = 30

    static func fragment(_ value: some Encodable) throws -> JSONFragment {
        try JSONDecoder().decode(JSONFragment.self, from: JSONEncoder().encode(value))
    }

    static func frame(_ view: JSONFragment, privateView: JSONFragment? = nil, me: UserID?, at: Instant = .epoch) -> ReplayFrame {
        ReplayFrame(server: "ws://localhost:8080/ws", code: "CODE", me: me, view: view, privateView: privateView, at: at)
    }

    static func body(_ drawing: ReplayDrawing?, _ frame: ReplayFrame) throws -> [String] {
        let drawing = try #require(drawing, "the game draws its replay")
        return try #require(drawing.body(frame, width, rows), "the view is read as the game's").map(\.text)
    }

    @Test("Rummy: the room's own score grid for the step")
    func rummy() throws {
        let room = try RoomFixtures.inRoundTwo()
        let drawn = try Self.body(RummyCommands.replay, Self.frame(try Self.fragment(room), me: RoomFixtures.cy))
        let live = RoomScreen.body(RoomScreenState(server: "ws://localhost:8080/ws", code: "CODE", room: room, me: RoomFixtures.cy), width: Self.width, rows: Self.rows)
        #expect(drawn == live.map(\.text))
        #expect(drawn.contains { $0.contains("Room K7Q2MX") }, "\(drawn)")
        // Another game's view is not read as a room.
        #expect(RummyCommands.replay?.body(Self.frame(.object(["board": .array([])]), me: nil), Self.width, Self.rows) == nil)
    }

    @Test("Tic-tac-toe: the board with its marks and the winner")
    func ticTacToe() throws {
        let view: JSONFragment = .object([
            "code": .string("1234567"), "status": .string("won"), "version": .number(7),
            "players": .array([
                .object(["playerId": .string(RoomFixtures.ann.rawValue), "name": .string("Ann"), "mark": .string("X")]),
                .object(["playerId": .string(RoomFixtures.bo.rawValue), "name": .string("Bo"), "mark": .string("O")]),
            ]),
            "board": .array(["X", "X", "X", "O", "O", "", "", "", ""].map(JSONFragment.string)),
            "winner": .string(RoomFixtures.ann.rawValue), "line": .array([.number(0), .number(1), .number(2)]),
        ])
        let drawn = try Self.body(TicTacToeCommands.replay, Self.frame(view, me: RoomFixtures.bo))
        #expect(drawn.contains { $0.contains("X Ann") && $0.contains("O Bo (you)") }, "\(drawn)")
        #expect(drawn.contains { $0.contains("Ann wins!") }, "\(drawn)")
        #expect(drawn.contains { $0.contains("X │ X │ X") } && drawn.contains { $0.contains("O │ O │") }, "\(drawn)")
    }

    @Test("Word game: a spectator sees counts during the round, a player their own words, nobody another's")
    func wordGame() throws {
        let lobby = try LobbyFixtures.inRound()
        let view = try Self.fragment(LobbyFixtures.view(lobby, serverTime: LobbyFixtures.start.adding(seconds: 5)))
        let at = LobbyFixtures.start.adding(seconds: 7)

        let watched = try Self.body(LobbyCommands.replay, Self.frame(view, me: Self.stranger, at: at))
        let watchedText = watched.joined(separator: "\n")
        #expect(watchedText.contains("Greek Letters Sprint"), "\(watchedText)")
        // Ann's Beta and Bo's omegas are theirs alone until the round ends ("alpha" is in the instructions).
        #expect(!watchedText.contains("Beta") && !watchedText.contains("omegas"), "\(watchedText)")
        // The countdown as it stood at the step: 23 s of the round's 30 left.
        #expect(watchedText.contains("0:23"), "\(watchedText)")

        let words = try Self.fragment(LobbyFixtures.words(lobby, for: LobbyFixtures.bo))
        let played = try Self.body(LobbyCommands.replay, Self.frame(view, privateView: words, me: LobbyFixtures.bo, at: at))
        let playedText = played.joined(separator: "\n")
        #expect(playedText.contains("omegas") && playedText.contains("✓ alpha"), "\(playedText)")
        #expect(!playedText.contains("Beta"), "Ann's unique word is not Bo's to see: \(playedText)")
    }

    @Test("Photo quiz: no answer while the photo fills in, the countdown at the step; the answer at the reveal")
    func photoQuiz() throws {
        let revealing = try Self.fragment(QuizFixtures.view("revealing"))
        let at = try #require(Instant(iso8601: "2026-06-14T09:30:08.000Z"))
        let during = try Self.body(QuizCommands.replay, Self.frame(revealing, me: QuizFixtures.cy, at: at)).joined(separator: "\n")
        #expect(!during.contains("Paris"), "\(during)")
        #expect(during.contains("0:12"), "12 s left to guess at the step: \(during)")

        let revealed = try Self.fragment(QuizFixtures.view("revealed"))
        let after = try Self.body(QuizCommands.replay, Self.frame(revealed, me: QuizFixtures.cy, at: at)).joined(separator: "\n")
        #expect(after.contains("Paris"), "\(after)")
    }

    @Test("The replay screen draws the game's body, not the step's action, for every game the terminal knows")
    func everyGameDraws() {
        for game in ParlorCommand.games {
            #expect(game.replay != nil, "\(game.title) draws no replay screen")
        }
    }
}
