import ParlorRules
import ParlorWire

// Tic-tac-toe, typed: each call is its operation's declaration, and its stream one `GameStream`.

extension ParlorClient {
    /// A new game with the caller as X, waiting for a second player.
    public func createTicTacToe(playerName: String) async throws(ParlorClientError) -> TicTacToeSeatResult {
        try await call(Operation.createTicTacToe, CreateTicTacToeArguments(playerName: playerName))
    }

    /// Takes the second seat (or returns the one the caller already has).
    public func joinTicTacToe(code: String, playerName: String) async throws(ParlorClientError) -> TicTacToeSeatResult {
        try await call(Operation.joinTicTacToe, JoinTicTacToeArguments(code: code, playerName: playerName))
    }

    /// Marks cell 0–8 (row by row) for the caller, on their turn.
    public func placeMark(code: String, cell: Int) async throws(ParlorClientError) -> TicTacToeView {
        try await call(Operation.placeMark, PlaceMarkArguments(code: code, cell: cell))
    }

    /// Leaves the game; during a game the other player wins.
    public func leaveTicTacToe(code: String) async throws(ParlorClientError) {
        _ = try await call(Operation.leaveTicTacToe, TicTacToeCodeArguments(code: code))
    }

    /// Starts the next game of a finished one, the same two players: answers its code.
    public func rematchTicTacToe(code: String) async throws(ParlorClientError) -> String {
        try await call(Operation.rematchTicTacToe, TicTacToeCodeArguments(code: code)).code
    }

    /// Takes the other seat away (the host, X); during a game the board is cleared and the game waits
    /// for a second player again. Answers the game without them.
    public func removeTicTacToePlayer(code: String, playerId: UserID) async throws(ParlorClientError) -> TicTacToeView {
        try await call(Operation.removeTicTacToePlayer, RemoveTicTacToePlayerArguments(code: code, playerId: playerId))
    }

    /// The game's every change, from its current state on; nil when it is deleted.
    public func observeTicTacToe(code: String) async throws(ParlorClientError) -> AsyncStream<TicTacToeView?> {
        try await follow(.ticTacToe, key: code)
    }
}

extension GameStream where Update == TicTacToeView? {
    /// A tic-tac-toe game's stream: the `ticTacToe` event, null when the game is deleted.
    public static let ticTacToe = GameStream(
        "tic-tac-toe", observe: Operation.observeTicTacToe, arguments: { TicTacToeCodeArguments(code: $0) }, event: .ticTacToe,
        gone: [.ticTacToeNotFound, .invalidInput, .notFound])
}

extension TicTacToeView: VersionedView {}
