/// What one game (or one service every game shares) adds to the wire: its operations and its error
/// codes. Each game declares its own in its wire folder (`WireVocabulary.darts`); `all` is the one
/// place that lists them — a line per game.
public struct WireVocabulary: Sendable {
    public let name: String
    public let operations: [AnyOperationDeclaration]
    public let errorCodes: [ErrorCode]

    public init(_ name: String, operations: [AnyOperationDeclaration], errorCodes: [ErrorCode] = []) {
        self.name = name
        self.operations = operations
        self.errorCodes = errorCodes
    }

    /// Everything Parlor speaks. Order matters only for a name several games share: its error lists
    /// the games in this order.
    public static let all: [WireVocabulary] = [
        .session, .accounts,
        .rummy,
        .wordLobby,
        .darts,
        .photoQuiz,
        .ticTacToe,
    ]

    /// Every declared operation, in the order of `all`.
    public static var operations: [AnyOperationDeclaration] { all.flatMap(\.operations) }
}

extension Operation {
    /// How the arguments of each operation name are read into a request; a name several games declare
    /// is read by the argument that claims it.
    static let registry: [OperationName: ArgumentsChoice<Operation>] = {
        var byName: [OperationName: [AnyOperationDeclaration]] = [:]
        var order: [OperationName] = []
        for declaration in WireVocabulary.operations {
            if byName[declaration.name] == nil { order.append(declaration.name) }
            byName[declaration.name, default: []].append(declaration)
        }
        var registry: [OperationName: ArgumentsChoice<Operation>] = [:]
        for name in order {
            guard let shared = byName[name] else { continue }
            registry[name] = ArgumentsChoice.of(shared.map { ($0.claim, $0.reader) }, name: name)
        }
        return registry
    }()
}

extension ArgumentsChoice {
    /// The choice among the readers that declare one name: one reader, or one per claim. Fails (a
    /// programmer error, at start-up) when they cannot be told apart.
    public static func of(_ readers: [(claim: OperationClaim?, reader: ArgumentsReader<Call>)], name: OperationName) -> ArgumentsChoice {
        if readers.count == 1 { return .one(readers[0].reader) }
        let claims = readers.compactMap(\.claim)
        precondition(
            claims.count == readers.count && Set(claims.map(\.key)).count == readers.count,
            "Operation \(name) is declared more than once without a distinct claim")
        return .byKey(zip(claims, readers).map { ($0.key, $0.label, $1.reader) })
    }
}
