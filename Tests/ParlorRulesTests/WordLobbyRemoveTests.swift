import Testing
@testable import ParlorRules

/// The creator takes a seat away: for the removed player it is leaving; nobody else may.
@Suite struct WordLobbyRemoveTests {
    @Test func theCreatorRemovesAPlayerAndTheirStreamsEnd() throws {
        var lobby = try WordRoundTests.running(players: 3)
        _ = try lobby.submitWord("banana", by: user(2), at: t0, wordList: WordRoundTests.words)
        let environment = WordLobbyEnvironment(catalog: WordRoundTests.catalog, wordList: WordRoundTests.words)
        let outcome = try lobby.apply(.remove(user(2)), by: .user(user(1)), at: t0, in: environment)
        #expect(outcome.events == [.playerLeft(user(2))] && outcome.effects == [.revokeView(user(2))])
        #expect(lobby.members == [user(1), user(3)] && lobby.round?.words(of: user(2)).isEmpty == true)
    }

    @Test func onlyTheCreatorRemovesSomeoneSeatedButNotThemselves() throws {
        var lobby = try WordLobbyTests.lobby(players: 3)
        let version = lobby.version
        #expect(lobbyError { _ = try lobby.remove(user(3), by: user(2)) } == .permissionDenied(.notCreator(action: "remove a player")))
        #expect(lobbyError { _ = try lobby.remove(user(3), by: user(9)) } == .permissionDenied(.notMember))
        #expect(lobbyError { _ = try lobby.remove(user(9), by: user(1)) } == .notFound(.player(user(9))))
        #expect(lobbyError { _ = try lobby.remove(user(1), by: user(1)) }
                == .invalidArgument(field: "userId", reason: "You cannot remove yourself; leave the lobby instead."))
        #expect(lobby.version == version)
    }
}
