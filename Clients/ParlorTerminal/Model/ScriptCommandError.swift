/// A line a script (or a person) typed that cannot be done: the sentence that says why.
public struct ScriptCommandError: Error, Sendable, Equatable {
    public let message: String

    public init(_ message: String) { self.message = message }
}
