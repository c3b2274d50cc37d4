/// The host removes the other player (`Kickable`; `removeTicTacToePlayer` on the wire).
///
/// Decisions:
/// - The host is X, who created the game (in a rematch, who was O before); only the host removes, and
///   not themselves (they leave instead).
/// - While the game is played, removing O takes their seat away and clears the board: nobody wins and
///   nothing is filed, and the game waits for a second player again (the same code, so the host can
///   share it anew). A removal is not a way to win: leaving is, for the player who leaves.
/// - A finished game is filed as it was played: removing then is INVALID_STATE.
extension TicTacToe: Kickable {
    public static func kick(_ player: UserID) -> TicTacToeAction { .removePlayer(playerId: player) }
}
