import Testing
@testable import ParlorRules

/// Every game's kick (`Kickable`) is the removal its rules had: darts' `removePlayer`, rummy's leave
/// with another's id, a word lobby's `remove` — the kernel sends it, the game decides.
@Suite struct KickableTests {
    @Test func dartsRemovesBeforeTheStartOnly() throws {
        var match = try DartsMatchSeatsTests.waiting()
        _ = try match.apply(.join(playerName: "Bo"), by: user(2), at: t0)
        _ = try match.apply(.join(playerName: "Cy"), by: user(3), at: t0)
        #expect(DartsMatch.kick(user(2)) == .removePlayer(playerId: user(2)))
        #expect(try match.apply(DartsMatch.kick(user(2)), by: user(1), at: t0) == [.removed(user(2))])
        _ = try match.apply(.start, by: user(1), at: t0)
        #expect(dartsError { _ = try match.apply(DartsMatch.kick(user(3)), by: user(1), at: t0) }?.message
            == "Match ACDEF has started; players can no longer be removed.")
    }

    @Test func rummyRemovesAnotherPlayerWithTheirScores() throws {
        var room = try RummyLobbyPhaseTests.readyRoom(players: 3)
        let moderator = try #require(room.moderator).id
        let other = try #require(room.players.last).id
        #expect(roomError { _ = try room.apply(RummyRoom.kick(moderator), by: other, at: t0) } == .notModerator(action: "remove another player"))
        _ = try room.apply(RummyRoom.kick(other), by: moderator, at: t0)
        #expect(!room.players.contains { $0.id == other } && room.players.count == 2)
    }

    @Test func aWordLobbyRemovesAndRevokesTheView() throws {
        var lobby = try WordLobbyTests.lobby(players: 2)
        let environment = WordLobbyEnvironment(catalog: WordRoundTests.catalog, wordList: WordRoundTests.words)
        let outcome = try lobby.apply(WordLobby.kick(user(2)), by: .user(user(1)), at: t0, in: environment)
        #expect(outcome.effects == [.revokeView(user(2))] && lobby.members == [user(1)])
    }
}
