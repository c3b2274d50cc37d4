/// One request's operation: its name with its typed arguments.
///
/// A game declares each of its operations once, in its wire folder, as an `OperationDeclaration`
/// hung on this type (`Operation.recordVisit`), so `.recordVisit(arguments)` is such a request.
/// Nothing here lists the operations themselves.
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
