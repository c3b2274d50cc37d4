import Testing
@testable import ParlorRules

/// The host (X) removes the other player (`TicTacToe+Kick`): the board is cleared and the game waits
/// for a second player again; nobody else may, and not once the game is over.
@Suite struct TicTacToeKickTests {
    @Test func removingOClearsTheBoardAndTheSeatIsFreeAgain() throws {
        var game = try TicTacToeTests.seated()
        _ = try game.apply(.place(cell: 4), by: .user(user(1)), at: t0, in: ())
        let version = game.version
        let outcome = try game.apply(TicTacToe.kick(user(2)), by: .user(user(1)), at: t0, in: ())
        #expect(outcome.events == [.removePlayer(playerId: user(2))] && outcome.effects.isEmpty, "nothing is filed")
        #expect(game.members == [user(1)] && game.stage == .waiting && game.board.allSatisfy { $0 == nil } && game.version == version + 1)
        #expect(game.winner == nil && !game.isFinished)
        _ = try game.apply(.join(playerName: "Cy"), by: .user(user(3)), at: t0, in: ())
        #expect(game.stage == .playing && game.publicView.next == user(1))
    }

    @Test func refusalsSayWhoMayAndWhen() throws {
        var game = try TicTacToeTests.seated()
        let version = game.version
        func refusal(_ player: UserID, by caller: UserID) -> TicTacToeError? {
            TicTacToeTests.error { _ = try game.apply(.removePlayer(playerId: player), by: .user(caller), at: t0, in: ()) }
        }
        #expect(refusal(user(1), by: user(2)) == .notHost(action: "remove a player"))
        #expect(refusal(user(2), by: user(9)) == .notPlayer)
        #expect(refusal(user(9), by: user(1)) == .playerNotFound(playerId: user(9).rawValue))
        #expect(refusal(user(1), by: user(1)) == .invalidState(reason: "You cannot remove yourself; leave the game instead."))
        #expect(game.version == version)
        for (cell, player) in [(0, 1), (3, 2), (1, 1), (4, 2), (2, 1)] {
            _ = try game.apply(.place(cell: cell), by: .user(user(player)), at: t0, in: ())
        }
        #expect(refusal(user(2), by: user(1)) == .invalidState(reason: "This game is over; it stays as it was played."))
    }
}
