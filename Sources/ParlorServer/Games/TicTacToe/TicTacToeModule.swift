import ParlorRules
import ParlorWire

/// Tic-tac-toe: creating and joining, the one move (`TicTacToeAction.moves`: `placeMark`), leaving,
/// reading and watching, rematches, the host removing the other player. Each operation acts as the signed-in caller.
struct TicTacToeModule: GameModule {
    /// Games held at once; creating more fails with NO_FREE_CODE.
    var maxGames = 100_000

    func register(in kernel: Kernel) throws -> GameRegistration {
        let host = GameHost(TicTacToeGame(maxGames: maxGames), kernel: kernel)
        let moves = host.moves(TicTacToeAction.moves)
        return GameRegistration(game: host, operations: Self.operations(host) + moves.entries, routes: moves.routes)
    }

    static func operations(_ host: GameHost<TicTacToeGame>) -> [OperationEntry] {
        let create = OperationHandler(Operation.createTicTacToe) { args, context throws(WireError) in
            let user = try context.signedIn()
            let created = try await host.create { id, code, now throws(TicTacToeError) in
                try TicTacToe.create(id: id, code: code, creator: user, playerName: args.playerName, at: now)
            }
            return .reply(EncodedJSON.seat(created.publicView, as: "ticTacToe", caller: user))
        }
        let join = OperationHandler(Operation.joinTicTacToe) { args, context throws(WireError) in
            let user = try context.signedIn()
            switch try await host.game(code: args.code).perform(.join(playerName: args.playerName), by: user) {
            case .game(_, let view, _): return .reply(EncodedJSON.seat(view, as: "ticTacToe", caller: user))
            case .deleted: throw host.game.notFound(code: try host.game.parse(code: args.code))
            }
        }
        let leave = OperationHandler(Operation.leaveTicTacToe) { args, context throws(WireError) in
            _ = try await host.game(code: args.code).perform(.leave, by: try context.signedIn())
            return .reply(.null)
        }
        let get = host.reading(Operation.getTicTacToe) { $0.code }
        let observe = host.watching(Operation.observeTicTacToe) { $0.code }
        let rematch = host.rematchOperation(Operation.rematchTicTacToe) { host, args throws(WireError) in try await host.game(code: args.code) }
        let remove = host.kickOperation(Operation.removeTicTacToePlayer, code: \.code, player: \.playerId)
        return [create.entry(), join.entry(), leave.entry(), get.entry(), observe.entry(), rematch.entry(), remove.entry()]
    }
}
