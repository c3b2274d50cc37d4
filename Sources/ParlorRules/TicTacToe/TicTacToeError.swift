/// Why the rules refuse an action; each case has its wire code (`WireError(TicTacToeError)`).
public enum TicTacToeError: Error, Sendable, Equatable {
    case gameNotFound(code: String)
    /// Both seats are taken.
    case full
    /// Not a player of this game.
    case notPlayer
    /// `action` completes "Only the host can …" (the host is X, who created the game).
    case notHost(action: String)
    /// No player of this game has this id.
    case playerNotFound(playerId: String)
    /// A mark by the player who is not to play.
    case notYourTurn(next: String)
    case cellTaken(cell: Int)
    case invalidInput(reason: String)
    case invalidState(reason: String)

    public var message: String {
        switch self {
        case .gameNotFound(let code): "Tic-tac-toe game \(code.prefix(20)) was not found."
        case .full: "Both seats of this game are taken."
        case .notPlayer: "You are not playing in this game."
        case .notHost(let action): "Only the host can \(action)."
        case .playerNotFound(let playerId): "Player \(playerId.prefix(40)) is not in this game."
        case .notYourTurn(let next): "It is \(next)'s turn."
        case .cellTaken(let cell): "Cell \(cell) is already marked."
        case .invalidInput(let reason), .invalidState(let reason): reason
        }
    }
}
