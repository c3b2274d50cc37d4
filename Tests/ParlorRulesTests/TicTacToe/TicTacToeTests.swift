import Testing
@testable import ParlorRules

/// The tic-tac-toe reducer: seats, turns, a win, a draw, leaving, refusals, rematches.
@Suite struct TicTacToeTests {
    static let code = TicTacToeCode(uncheckedRawValue: "1234567")

    static func seated() throws -> TicTacToe {
        var game = try TicTacToe.create(id: "g1", code: code, creator: user(1), playerName: "Ann", at: t0)
        _ = try game.apply(.join(playerName: "Bo"), by: .user(user(2)), at: t0, in: ())
        return game
    }

    static func error(_ body: () throws -> Void) -> TicTacToeError? {
        do {
            try body()
            return nil
        } catch {
            return error as? TicTacToeError
        }
    }

    @Test func threeInARowWinsAndFilesTheGame() throws {
        var game = try Self.seated()
        #expect(game.stage == .playing && game.publicView.next == user(1) && game.publicView.status == "playing")
        for (cell, player) in [(0, 1), (3, 2), (1, 1), (4, 2)] {
            _ = try game.apply(.place(cell: cell), by: .user(user(player)), at: t0, in: ())
        }
        let outcome = try game.apply(.place(cell: 2), by: .user(user(1)), at: t0.adding(seconds: 30), in: ())
        #expect(outcome.archive?.players == [user(1), user(2)] && outcome.archive?.finishedAt == t0.adding(seconds: 30))
        let view = game.publicView
        #expect(view.status == "won" && view.winner == user(1) && view.line == [0, 1, 2] && view.next == nil)
        #expect(view.board == ["X", "X", "X", "O", "O", "", "", "", ""] && game.stage == .finished && view.version == 7)
        #expect(Self.error { _ = try game.apply(.place(cell: 8), by: .user(user(2)), at: t0, in: ()) } == .invalidState(reason: "This game is over."))
    }

    @Test func aFullBoardWithoutALineIsADraw() throws {
        var game = try Self.seated()
        for (cell, player) in [(0, 1), (1, 2), (2, 1), (4, 2), (3, 1), (5, 2), (7, 1), (6, 2), (8, 1)] {
            _ = try game.apply(.place(cell: cell), by: .user(user(player)), at: t0, in: ())
        }
        #expect(game.publicView.status == "draw" && game.publicView.winner == nil && game.isFinished)
    }

    @Test func refusalsNameWhatIsWrong() throws {
        var lonely = try TicTacToe.create(id: "g1", code: Self.code, creator: user(1), playerName: "Ann", at: t0)
        #expect(Self.error { _ = try lonely.apply(.place(cell: 0), by: .user(user(1)), at: t0, in: ()) }
            == .invalidState(reason: "The game starts when a second player joins."))
        var game = try Self.seated()
        #expect(Self.error { _ = try game.apply(.place(cell: 0), by: .user(user(2)), at: t0, in: ()) } == .notYourTurn(next: "Ann"))
        #expect(Self.error { _ = try game.apply(.place(cell: 9), by: .user(user(1)), at: t0, in: ()) }
            == .invalidInput(reason: "cell must be between 0 and 8 (got 9)."))
        _ = try game.apply(.place(cell: 4), by: .user(user(1)), at: t0, in: ())
        #expect(Self.error { _ = try game.apply(.place(cell: 4), by: .user(user(2)), at: t0, in: ()) } == .cellTaken(cell: 4))
        #expect(Self.error { _ = try game.apply(.place(cell: 0), by: .user(user(3)), at: t0, in: ()) } == .notPlayer)
        #expect(Self.error { _ = try game.apply(.join(playerName: "Cy"), by: .user(user(3)), at: t0, in: ()) } == .full)
        #expect(Self.error { _ = try TicTacToe.create(id: "g2", code: Self.code, creator: user(1), playerName: " ", at: t0) } != nil)
        // Joining again answers the seat you have, unchanged.
        let version = game.version
        _ = try game.apply(.join(playerName: "Bo"), by: .user(user(2)), at: t0, in: ())
        #expect(game.version == version)
    }

    @Test func leavingDuringAGameHandsTheOtherPlayerTheWin() throws {
        var game = try Self.seated()
        let outcome = try game.apply(.leave, by: .user(user(1)), at: t0, in: ())
        #expect(game.publicView.winner == user(2) && outcome.archive != nil)
        var waiting = try TicTacToe.create(id: "g1", code: Self.code, creator: user(1), playerName: "Ann", at: t0)
        #expect(try waiting.apply(.leave, by: .user(user(1)), at: t0, in: ()).deletes)
    }

    @Test func aRematchSwapsWhoPlaysFirst() throws {
        var game = try Self.seated()
        #expect(Self.error { _ = try game.rematch(by: user(1), id: "g2", code: "7654321", at: t0) } != nil)
        _ = try game.apply(.leave, by: .user(user(2)), at: t0, in: ())
        let next = try game.rematch(by: user(2), id: "g2", code: "7654321", at: t0)
        #expect(next.publicView.players.map(\.name) == ["Bo", "Ann"] && next.publicView.players.map(\.mark) == ["X", "O"])
        #expect(next.stage == .playing && next.code.rawValue == "7654321")
        #expect(Self.error { _ = try game.rematch(by: user(3), id: "g2", code: "7654321", at: t0) } == .notPlayer)
        _ = try game.apply(TicTacToe.recordRematch(code: "7654321"), by: .user(user(2)), at: t0, in: ())
        #expect(game.publicView.rematchCode == "7654321")
    }

    @Test func codesSayTheirKind() {
        #expect((try? TicTacToeCode(parsing: " 0012345 "))?.rawValue == "0012345")
        for other in ["K7Q2ZD", "GDTS", "ACDEF", "123456", "12345678", "12a4567"] {
            #expect((try? TicTacToeCode(parsing: other)) == nil, "\(other)")
        }
    }
}
