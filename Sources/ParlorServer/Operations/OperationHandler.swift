import ParlorRules
import ParlorWire

/// Who may call an operation.
enum OperationAccess: Sendable {
    /// Anyone, signed in or not (reading a room, the catalog, signing in).
    case anyone
    /// A signed-in user; anyone else gets `UNAUTHENTICATED` before the operation runs.
    case signedIn
}

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

/// One operation as a game (or the kernel) implements it: its wire name, who may call it, and what it
/// does with its typed arguments. The same handler answers the WebSocket operation, its REST route
/// and its callable function.
struct OperationHandler<Arguments: Sendable>: Sendable {
    let name: OperationName
    let access: OperationAccess
    let run: @Sendable (Arguments, OperationContext) async throws(WireError) -> OperationResult

    init(
        _ name: OperationName, access: OperationAccess = .signedIn,
        _ run: @escaping @Sendable (Arguments, OperationContext) async throws(WireError) -> OperationResult
    ) {
        self.name = name
        self.access = access
        self.run = run
    }

    /// The call of these arguments.
    func call(_ arguments: Arguments) -> PreparedCall {
        let run = run
        return { context throws(WireError) in try await run(arguments, context) }
    }
}

/// A row of the operation table: an operation's name and how to read its arguments into a call.
struct OperationEntry: Sendable {
    let name: OperationName
    let access: OperationAccess
    /// For a name several games share (`startGame`): the argument only this game's form has, and the
    /// game's name for the error when a request has neither or both.
    let claim: (key: String, label: String)?
    /// Also callable as `POST /functions/{name}` (the word-lobby seed's Firebase callable functions).
    let callable: Bool
    let reader: ArgumentsReader<PreparedCall>
}

extension OperationHandler where Arguments: Decodable {
    /// The operation's row in the table.
    func entry(claim: (key: String, label: String)? = nil, callable: Bool = false) -> OperationEntry {
        OperationEntry(name: name, access: access, claim: claim, callable: callable, reader: .reading(Arguments.self, call))
    }
}

extension OperationHandler where Arguments: Decodable & DefaultArguments {
    /// The operation's row in the table; its arguments may be left out.
    func entry(claim: (key: String, label: String)? = nil, callable: Bool = false) -> OperationEntry {
        OperationEntry(name: name, access: access, claim: claim, callable: callable, reader: .reading(Arguments.self, call))
    }
}
