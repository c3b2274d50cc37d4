import ParlorClient
import ParlorRules
@testable import ParlorTerminal
import ParlorWire
import Testing

/// The end of a word match on screen, the word list in columns, and which game `parlor watch CODE`
/// watches.
@Suite("Lobby match end and watch codes")
struct LobbyMatchEndScreenTests {
    /// A one-round match, over: Ann +3 (total 3), Bo +1, Cy 0.
    static func finished() throws -> WordLobby {
        var lobby = try WordLobby.create(
            lobbyId: LobbyFixtures.lobbyId, code: LobbyCode(uncheckedRawValue: LobbyFixtures.code), creator: LobbyFixtures.ann,
            profile: LobbyProfile(username: "Ann", colorNumber: 0, emojiNumber: 5), rounds: 1, at: LobbyFixtures.start.adding(seconds: -60))
        _ = try lobby.join(LobbyFixtures.bo, profile: LobbyProfile(username: "Bo", colorNumber: 8, emojiNumber: 7))
        _ = try lobby.join(LobbyFixtures.cy, profile: LobbyProfile(username: "Cy", colorNumber: 3, emojiNumber: 13))
        _ = try lobby.startGame(.game(LobbyFixtures.greek), by: LobbyFixtures.ann, at: LobbyFixtures.start)
        let words = SetWordList([])
        for (word, player) in [("alpha", LobbyFixtures.bo), ("alpha", LobbyFixtures.ann), ("Beta", LobbyFixtures.ann)] {
            _ = try lobby.submitWord(word, by: player, at: LobbyFixtures.start.adding(seconds: 5), wordList: words)
        }
        _ = lobby.endRound(1, at: LobbyFixtures.start.adding(seconds: 30))
        return lobby
    }

    @Test("After the last round: the winner in the summary, final results best first, no /start")
    func finishedMatch() throws {
        let lobby = try Self.finished()
        #expect(lobby.status == .finished)
        let lines = LobbyScreen.text(LobbyFixtures.screen(lobby, me: LobbyFixtures.bo), width: 72, height: 40)
        #expect(lines.contains("  Match over · Ann wins with 3 points"))
        let title = try #require(lines.firstIndex { $0.hasPrefix("  Final results · round 1") })
        let ranked = lines[(title + 1)...].filter { $0.contains("total") }
        #expect(ranked.count == 3 && ranked[0].contains("Ann") && ranked[1].contains("Bo") && ranked[2].contains("Cy"))
        let creator = LobbyScreen.text(LobbyFixtures.screen(lobby, me: LobbyFixtures.ann), width: 72, height: 40)
        #expect(creator.contains("  Match over · You win with 3 points"))
        #expect(creator.last == "  [/rematch] play again  [/leave] leave  [Esc] quit")
    }

    @Test("Results are sorted by points even when the seats say otherwise")
    func sortedResults() throws {
        var lobby = try LobbyFixtures.open()
        _ = try lobby.startGame(.game(LobbyFixtures.greek), by: LobbyFixtures.ann, at: LobbyFixtures.start)
        for word in ["alpha", "beta", "gamma"] {
            _ = try lobby.submitWord(word, by: LobbyFixtures.cy, at: LobbyFixtures.start.adding(seconds: 5), wordList: SetWordList([]))
        }
        _ = lobby.endRound(1, at: LobbyFixtures.start.adding(seconds: 30))
        let lines = LobbyScreen.text(LobbyFixtures.screen(lobby), width: 72, height: 40)
        let ranked = lines.filter { $0.contains("total") }
        #expect(ranked.first?.contains("Cy") == true)
    }

    @Test("Your words in columns, newest at the bottom, the newest refusal's reason under them")
    func wordColumns() {
        let cells = ["✓ alpha", "✓ beta", "✗ omegas", "✓ gamma"].map { Span($0, .plain) }
        let lines = LobbyRoundSection.columns(cells, width: 40).map(\.text)
        #expect(lines == ["  ✓ alpha   ✓ beta    ✗ omegas  ✓ gamma"])
        #expect(LobbyRoundSection.columns(cells, width: 24).map(\.text) == ["  ✓ alpha   ✓ beta", "  ✗ omegas  ✓ gamma"])
        #expect(LobbyRoundSection.columns(cells, width: 12).map(\.text) == ["  ✓ alpha", "  ✓ beta", "  ✗ omegas", "  ✓ gamma"])
    }

    @Test("parlor watch tells the game by its code: every kind's codes have a shape of their own")
    func watchCodes() throws {
        func game(_ text: String) -> String? {
            ParlorCommand.game(ofCode: text).map { "\($0.game.codes.owner) \($0.code)" }
        }
        #expect(game(" a1b2c3") == "a room A1B2C3")
        #expect(game("gdts") == "a word lobby GDTS")
        #expect(game("3k7qx") == "a darts match 3K7QX")
        #expect(game("qwert") == "a photo quiz QWERT")
        #expect(game("4819273") == "a tic-tac-toe game 4819273")
        // A match code given out before codes said their kind (a letter first) is still a match's;
        // one of all letters reads as a quiz's, the shape quizzes have now.
        #expect(game("k7qx4") == "a darts match K7QX4")
        #expect(game("AB") == nil)
        #expect(Watch.notACode(" AB").hasPrefix("\"AB\" is not a game code: a room's 6 characters (A1B2C3), a word lobby's 4 letters (GDTS)"))
        #expect(throws: (any Error).self) { try Watch.parse(["AB"]) }
    }
}
