import ParlorRules

// Arguments of the tic-tac-toe operations. Codes arrive as text so the server can answer a malformed
// one with INVALID_INPUT naming `code`.

/// `createTicTacToe {playerName}`.
public struct CreateTicTacToeArguments: OperationArguments {
    public var playerName: String

    public init(playerName: String) { self.playerName = playerName }
}

/// `joinTicTacToe {code, playerName}`.
public struct JoinTicTacToeArguments: OperationArguments {
    public var code: String
    public var playerName: String

    public init(code: String, playerName: String) {
        self.code = code
        self.playerName = playerName
    }
}

/// `placeMark {code, cell}`: cell 0–8, row by row.
public struct PlaceMarkArguments: OperationArguments {
    public var code: String
    public var cell: Int

    public init(code: String, cell: Int) {
        self.code = code
        self.cell = cell
    }
}

/// `removeTicTacToePlayer {code, playerId}` (the host).
public struct RemoveTicTacToePlayerArguments: OperationArguments {
    public var code: String
    public var playerId: UserID

    public init(code: String, playerId: UserID) {
        self.code = code
        self.playerId = playerId
    }
}

/// `leaveTicTacToe`, `getTicTacToe`, `observeTicTacToe`, `rematchTicTacToe`: `{code}`.
public struct TicTacToeCodeArguments: OperationArguments {
    public var code: String

    public init(code: String) { self.code = code }
}

/// The reply to creating or joining: the game, and who you are in it.
public struct TicTacToeSeatResult: Sendable, Equatable, Codable {
    public let ticTacToe: TicTacToeView
    public let currentUserId: UserID
}
