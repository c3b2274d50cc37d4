/// An operation that is one move of a game: it applies one action of the game's rules, as the caller,
/// to the game its code names, and answers the game's public view as the action left it. The server
/// registers every move of every game the same way (`GameHost.moves`), so adding a move is its
/// declaration, its line in the game's list of moves, the rules and the screens — no handler.
public struct GameMove<Action: Sendable>: Sendable {
    public let operation: AnyOperationDeclaration
    /// Reads a request's `args` into the game's code and the action.
    public let reader: ArgumentsReader<MoveCall<Action>>
    /// The move's REST routes, reading a request into the same.
    public let routes: [(method: String, path: String, status: Int, call: @Sendable (RouteRequest) throws(WireError) -> MoveCall<Action>)]
}

/// A move as a request asked for it: the code of the game, and the action — or why the arguments make
/// none (a guess off the globe), answered once the caller is known.
public struct MoveCall<Action: Sendable>: Sendable {
    public let code: String
    public let action: Result<Action, WireError>

    public init(code: String, action: Result<Action, WireError>) {
        self.code = code
        self.action = action
    }
}

extension OperationDeclaration {
    /// This operation as a move: `code` reads the game's code from the arguments, `action` makes the
    /// rules' action of them (or refuses them with a typed error).
    public func move<Action: Sendable>(
        code: @escaping @Sendable (Arguments) -> String,
        _ action: @escaping @Sendable (Arguments) throws(WireError) -> Action
    ) -> GameMove<Action> {
        let call: @Sendable (Arguments) -> MoveCall<Action> = { arguments in
            do throws(WireError) {
                return MoveCall(code: code(arguments), action: .success(try action(arguments)))
            } catch {
                return MoveCall(code: code(arguments), action: .failure(error))
            }
        }
        return GameMove(
            operation: erased, reader: reader(call),
            routes: routes.map { route in
                let read = route.arguments
                return (route.method, route.path, route.status, { request throws(WireError) in call(try read(request)) })
            })
    }
}
