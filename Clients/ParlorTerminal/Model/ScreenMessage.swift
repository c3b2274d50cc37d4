/// The message line every game's screen keeps: a sentence for the person at the terminal, an error or
/// not, that the session expires after `seconds`.
public struct ScreenMessage: Sendable, Equatable {
    public var text: String
    public var isError: Bool
    /// Nil: until something replaces it.
    public var seconds: Int?

    /// Long enough to read a sentence twice.
    public static let defaultSeconds = 10

    public init(_ text: String, isError: Bool = false, seconds: Int? = ScreenMessage.defaultSeconds) {
        self.text = text
        self.isError = isError
        self.seconds = seconds
    }
}
