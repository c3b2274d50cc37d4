import ParlorRules

// The tic-tac-toe operations, each declared once; `placeMark` is the game's one move.

extension Operation {
    public static let createTicTacToe = OperationDeclaration<CreateTicTacToeArguments, TicTacToeSeatResult>("createTicTacToe")
    public static let joinTicTacToe = OperationDeclaration<JoinTicTacToeArguments, TicTacToeSeatResult>("joinTicTacToe")
    public static let placeMark = OperationDeclaration<PlaceMarkArguments, TicTacToeView>("placeMark")
    /// Answers null; during a game the other player wins.
    public static let leaveTicTacToe = OperationDeclaration<TicTacToeCodeArguments, NoResult>("leaveTicTacToe")
    /// Anyone may read or watch a game, signed in or not.
    public static let getTicTacToe = OperationDeclaration<TicTacToeCodeArguments, TicTacToeView>("getTicTacToe", access: .anyone)
    public static let observeTicTacToe = OperationDeclaration<TicTacToeCodeArguments, Subscribed>("observeTicTacToe", access: .anyone)
    /// The host (X) takes the other seat away; during a game the board is cleared (`TicTacToe+Kick`).
    public static let removeTicTacToePlayer = OperationDeclaration<RemoveTicTacToePlayerArguments, TicTacToeView>("removeTicTacToePlayer")
    /// Either player of a finished game starts the next one: `{code}`, the new game's.
    public static let rematchTicTacToe = OperationDeclaration<TicTacToeCodeArguments, RematchResult>("rematchTicTacToe")
}

extension TicTacToeAction {
    public static let moves: [GameMove<TicTacToeAction>] = [
        Operation.placeMark.move(code: { $0.code }) { .place(cell: $0.cell) },
    ]
}

extension EventName {
    /// A tic-tac-toe game's view (`TicTacToeView`).
    public static let ticTacToe = EventName(rawValue: "ticTacToe")
}

extension ErrorCode {
    public static let ticTacToeNotFound = ErrorCode("TICTACTOE_NOT_FOUND", .notFound, 404)
    public static let ticTacToeFull = ErrorCode("TICTACTOE_FULL", .resourceExhausted, 409)
    public static let cellTaken = ErrorCode("CELL_TAKEN", .failedPrecondition, 409)
}

extension WireError {
    public init(_ error: TicTacToeError) {
        let code: ErrorCode = switch error {
        case .gameNotFound: .ticTacToeNotFound
        case .full: .ticTacToeFull
        case .notPlayer: .forbidden
        case .notHost: .notHost
        case .playerNotFound: .playerNotFound
        case .notYourTurn: .notYourTurn
        case .cellTaken: .cellTaken
        case .invalidInput: .invalidInput
        case .invalidState: .invalidState
        }
        self.init(code, error.message)
    }
}

extension WireVocabulary {
    public static let ticTacToe = WireVocabulary(
        "tic-tac-toe",
        operations: [Operation.createTicTacToe.erased, Operation.joinTicTacToe.erased] + TicTacToeAction.moves.map(\.operation) + [
            Operation.leaveTicTacToe.erased, Operation.getTicTacToe.erased, Operation.observeTicTacToe.erased,
            Operation.rematchTicTacToe.erased, Operation.removeTicTacToePlayer.erased,
        ],
        errorCodes: [.ticTacToeNotFound, .ticTacToeFull, .cellTaken])
}
