/// One operation, declared once, in its game's wire folder, as a typed value: its wire name, its
/// arguments and its result, who may call it, and how it is reached over HTTP. Everything else reads
/// it: the envelope's decoding (`WireVocabulary`), the server's table entry and REST routes, the
/// client's typed call, and the check that `docs/PROTOCOL.md` lists it.
///
/// Declarations hang on `Operation` (`extension Operation { public static let recordVisit = … }`), so
/// that `.recordVisit(arguments)` is the request a client sends.
public struct OperationDeclaration<Arguments: OperationArguments, Result: Decodable & Sendable>: Sendable {
    public let name: OperationName
    public let access: OperationAccess
    /// For a name several games share (`startGame`): the argument only this game's form has.
    public let claim: OperationClaim?
    /// Also callable as `POST /functions/{name}` (the word-lobby seed's Firebase callable functions).
    public let callable: Bool
    /// Its REST routes, each reading the arguments from a request's path, query and body.
    public let routes: [OperationRoute<Arguments>]
    /// What absent or null `args` mean, for arguments whose fields are all optional; nil when required.
    public let defaultArguments: Arguments?

    public init(
        _ name: String, access: OperationAccess = .signedIn, claim: OperationClaim? = nil, callable: Bool = false,
        routes: [OperationRoute<Arguments>] = []
    ) {
        self.name = OperationName(name)
        self.access = access
        self.claim = claim
        self.callable = callable
        self.routes = routes
        defaultArguments = (Arguments.self as? any DefaultArguments.Type)?.init() as? Arguments
    }

    /// The request of these arguments.
    public func callAsFunction(_ arguments: Arguments) -> Operation { Operation(name, arguments) }

    /// Reads this operation's arguments into what `make` builds of them (a request, a server call).
    public func reader<Call>(_ make: @escaping @Sendable (Arguments) -> Call) -> ArgumentsReader<Call> {
        guard let defaultArguments else { return .reading(Arguments.self, make) }
        return ArgumentsReader(read: { make(try Arguments(from: $0)) }, absent: { make(defaultArguments) })
    }

    /// The declaration without its types, for lists and documents.
    public var erased: AnyOperationDeclaration {
        AnyOperationDeclaration(
            name: name, access: access, claim: claim, callable: callable,
            routes: routes.map { ($0.method, $0.path, $0.status) }, reader: reader { self($0) })
    }
}

/// Who may call an operation.
public enum OperationAccess: Sendable {
    /// Anyone, signed in or not (reading a room, the catalog, signing in).
    case anyone
    /// A signed-in user; anyone else gets `UNAUTHENTICATED` before the operation runs.
    case signedIn
}

/// How one of several games sharing an operation's name is told apart: by an argument only its form
/// has (`roomCode`, `lobbyId`); `label` names the game in the error when a request has neither or both.
public struct OperationClaim: Sendable, Equatable {
    public let key: String
    public let label: String

    public init(key: String, label: String) {
        self.key = key
        self.label = label
    }
}

/// An operation as the lists need it, whatever its types: the envelope's registry, the server's
/// check that it answers every declared operation, the protocol document's check.
public struct AnyOperationDeclaration: Sendable {
    public let name: OperationName
    public let access: OperationAccess
    public let claim: OperationClaim?
    public let callable: Bool
    public let routes: [(method: String, path: String, status: Int)]
    let reader: ArgumentsReader<Operation>
}
