import ParlorRules
import ParlorWire

/// Where an operation runs: who is asking, and over which connection.
struct OperationContext: Sendable {
    /// The caller; never nil for `.signedIn` operations.
    let user: UserID?
    /// The WebSocket session the request came on; nil over HTTP.
    let session: Session?

    /// The caller of a `.signedIn` operation.
    func signedIn() throws(WireError) -> UserID {
        guard let user else { throw OperationTable.unauthenticated }
        return user
    }
}

/// What an operation answers.
enum OperationResult: Sendable {
    /// The result, already encoded.
    case reply(EncodedJSON)
    /// Starts a subscription: the session answers with the reply made from the subscription's number,
    /// then attaches the grant, so the feed's first event follows the reply.
    case subscribe(FeedGrant, reply: @Sendable (_ topic: Int) throws(WireError) -> EncodedJSON)
}

/// An operation with its arguments read, ready to run.
typealias PreparedCall = @Sendable (OperationContext) async throws(WireError) -> OperationResult

/// One operation as a game (or the kernel) implements it: its declaration (name, who may call it, its
/// REST routes) and what it does with its typed arguments. The same handler answers the WebSocket
/// operation, its REST routes and its callable function.
struct OperationHandler<Arguments: OperationArguments>: Sendable {
    let name: OperationName
    let access: OperationAccess
    let claim: OperationClaim?
    let callable: Bool
    let declaredRoutes: [OperationRoute<Arguments>]
    let defaultArguments: Arguments?
    let run: @Sendable (Arguments, OperationContext) async throws(WireError) -> OperationResult

    init<Result>(
        _ declaration: OperationDeclaration<Arguments, Result>,
        _ run: @escaping @Sendable (Arguments, OperationContext) async throws(WireError) -> OperationResult
    ) {
        name = declaration.name
        access = declaration.access
        claim = declaration.claim
        callable = declaration.callable
        declaredRoutes = declaration.routes
        defaultArguments = declaration.defaultArguments
        self.run = run
    }

    /// The call of these arguments.
    func call(_ arguments: Arguments) -> PreparedCall {
        let run = run
        return { context throws(WireError) in try await run(arguments, context) }
    }

    /// The operation's row in the table.
    func entry() -> OperationEntry {
        let call = call
        let reader = defaultArguments.map { defaults in
            ArgumentsReader<PreparedCall>(read: { call(try Arguments(from: $0)) }, absent: { call(defaults) })
        } ?? .reading(Arguments.self, call)
        return OperationEntry(name: name, access: access, claim: claim, callable: callable, reader: reader)
    }

    /// The REST routes its declaration gives it.
    var routes: [HTTPRoute] {
        let call = call
        return declaredRoutes.map { route in
            let read = route.arguments
            return HTTPRoute(declared: route.method, route.path, status: route.status, access: access) { request throws(WireError) in
                call(try read(request.declared))
            }
        }
    }
}

/// A row of the operation table: an operation's name and how to read its arguments into a call.
struct OperationEntry: Sendable {
    let name: OperationName
    let access: OperationAccess
    /// For a name several games share (`startGame`): the argument only this game's form has.
    let claim: OperationClaim?
    /// Also callable as `POST /functions/{name}` (the word-lobby seed's Firebase callable functions).
    let callable: Bool
    let reader: ArgumentsReader<PreparedCall>
}
