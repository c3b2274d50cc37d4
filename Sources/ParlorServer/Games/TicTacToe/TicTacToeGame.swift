import Foundation
import ParlorRules
import ParlorWire

/// Tic-tac-toe on the kernel: 7-digit codes, a random id, the `ticTacToe` event with the rules' one
/// view, the rules' own Codable form as stored, and finished games in `listHistory`.
struct TicTacToeGame: GameDefinition {
    typealias Rules = TicTacToe
    typealias Code = TicTacToeCode

    static let kind = GameKind("tic-tac-toe", noun: "board", plural: "boards")
    /// Every move is public once the game is over: its record shows the actions.
    let recordsPublicActions = true

    let codeSpace = TicTacToeCode.space
    let maxGames: Int

    func newID(code: TicTacToeCode) -> String { Self.randomID() }

    func id(of game: TicTacToe) -> String { game.id }
    func code(of game: TicTacToe) -> TicTacToeCode { game.code }

    func parse(code: String) throws(WireError) -> TicTacToeCode {
        do {
            return try TicTacToeCode(parsing: code)
        } catch {
            throw WireError(.invalidInput, error.message)
        }
    }

    func notFound(code: TicTacToeCode) -> WireError { WireError(TicTacToeError.gameNotFound(code: code.rawValue)) }
    func notFound(id: String) -> WireError { WireError(.ticTacToeNotFound, "The game is over: everyone left it.") }
    func wireError(_ failure: TicTacToeError) -> WireError { WireError(failure) }

    let publicEvent = EventName.ticTacToe

    func encodePublicView(_ game: TicTacToe, at now: Instant) throws(WireError) -> EncodedJSON {
        try EncodedJSON.encoding(game.publicView)
    }

    static func storedJSON(_ game: TicTacToe) throws(StoreError) -> String { try StoredJSON.encode(game, what: "tic-tac-toe \(game.id)") }
    static func decodeStored(_ json: String) throws -> TicTacToe { try JSONDecoder().decode(TicTacToe.self, from: Data(json.utf8)) }

    /// A finished game in `listHistory`: the winner first (1 point), or both level after a draw.
    func playedGame(_ game: TicTacToe, for user: UserID) -> PlayedGame? {
        guard let finishedAt = game.finishedAt else { return nil }
        let players = game.seats.enumerated().map { seat, player in
            let won = game.winner == seat
            return PlayedGame.Player(userId: player.playerId, name: player.name, points: won ? 1 : 0, rank: game.winner == nil || won ? 1 : 2)
        }
        return PlayedGame(kind: Self.kind.name, code: game.code.rawValue, finishedAt: finishedAt, players: players, for: user)
    }
}
