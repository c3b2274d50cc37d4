/// Everything that changes a tic-tac-toe game.
public enum TicTacToeAction: Sendable, Codable, Equatable {
    /// Takes the free seat (O), or answers the seat the caller has.
    case join(playerName: String)
    /// The player to play marks `cell` (0–8, row by row).
    case place(cell: Int)
    /// Leaves: before the start the seat is freed; during a game the other player wins.
    case leave
    /// The host (X, who created the game) takes the other seat away (`Kickable`, `TicTacToe+Kick`).
    case removePlayer(playerId: UserID)
    /// The kernel records the rematch's code (`Rematchable`).
    case recordRematch(code: String)
}
