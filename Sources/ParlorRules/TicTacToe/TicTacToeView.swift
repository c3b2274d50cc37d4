/// A tic-tac-toe game as everyone sees it — the one view of the game: the rules make it, the server
/// sends it (the `ticTacToe` event and every reply), clients decode it. Nothing in the game is secret.
public struct TicTacToeView: Sendable, Codable, Equatable {
    public struct Player: Sendable, Codable, Equatable {
        public let playerId: UserID
        public let name: String
        /// `"X"` or `"O"`.
        public let mark: String
    }

    public let code: String
    public let players: [Player]
    /// Nine cells, row by row: `"X"`, `"O"` or `""`.
    public let board: [String]
    /// `waiting` (for a second player), `playing`, `won`, `draw`.
    public let status: String
    /// The player to play, while the game is on.
    public let next: UserID?
    public let winner: UserID?
    /// The three cells of the winning line.
    public let line: [Int]?
    /// The rematch's code once one is started.
    public let rematchCode: String?
    public let version: Int

    static let marks = ["X", "O"]

    init(_ game: TicTacToe) {
        code = game.code.rawValue
        players = game.seats.enumerated().map { Player(playerId: $1.playerId, name: $1.name, mark: Self.marks[$0]) }
        board = game.board.map { $0.map { Self.marks[$0] } ?? "" }
        status = game.winner != nil ? "won" : game.isFinished ? "draw" : game.seats.count == 2 ? "playing" : "waiting"
        next = game.next.map { game.seats[$0].playerId }
        winner = game.winner.map { game.seats[$0].playerId }
        line = game.winner.flatMap { seat in TicTacToe.lines.first { $0.allSatisfy { game.board[$0] == seat } } }
        rematchCode = game.rematchCode
        version = game.version
    }
}
