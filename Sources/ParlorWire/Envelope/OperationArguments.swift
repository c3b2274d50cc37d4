/// The arguments of an operation, as a game's wire file declares them (`CreateRoomArguments`, …).
///
/// `Operation` holds them type-erased, so that a game brings its own operations without a shared enum
/// naming every game's arguments; this is what it still needs of them: to write them, to read them,
/// to send them across tasks and to compare them.
public protocol OperationArguments: Codable, Sendable, Equatable {}

extension OperationArguments {
    /// Whether `other` is arguments of this same type, equal to these.
    func isEqual(to other: any OperationArguments) -> Bool {
        (other as? Self) == self
    }
}
