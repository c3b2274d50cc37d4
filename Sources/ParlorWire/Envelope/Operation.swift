/// One request's operation: its name with its typed arguments.
///
/// A game declares each of its operations once, in its wire file beside the arguments type: a
/// constructor (`Operation.createRoom(_:)`) and an `OperationSpec` in the game's list, which
/// `Operation.specs` names. Nothing here lists the operations themselves.
public struct Operation: Sendable, Equatable {
    public let name: OperationName
    public let arguments: any OperationArguments

    public init(_ name: OperationName, _ arguments: some OperationArguments) {
        self.name = name
        self.arguments = arguments
    }

    /// The arguments as `type`, or nil when they are of another type.
    public func arguments<Arguments: OperationArguments>(as type: Arguments.Type) -> Arguments? {
        arguments as? Arguments
    }

    public static func == (lhs: Operation, rhs: Operation) -> Bool {
        lhs.name == rhs.name && lhs.arguments.isEqual(to: rhs.arguments)
    }
}

extension Operation {
    /// Every game's operations; a new game adds its wire file's list here.
    static let specs: [OperationSpec] =
        OperationSpec.session + OperationSpec.rummy + OperationSpec.wordLobby + OperationSpec.catalog + OperationSpec.shared
        + OperationSpec.darts + OperationSpec.accounts + OperationSpec.photoQuiz + OperationSpec.history

    /// How the arguments of each operation name are read.
    static let registry: [OperationName: ArgumentsChoice<Operation>] = {
        var registry: [OperationName: ArgumentsChoice<Operation>] = [:]
        for spec in specs {
            precondition(registry[spec.name] == nil, "Operation \(spec.name) is registered more than once")
            registry[spec.name] = spec.choice
        }
        return registry
    }()
}
