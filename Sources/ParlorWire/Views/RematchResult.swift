/// The reply to every game's rematch operation: the new game's code.
public struct RematchResult: Sendable, Equatable, Codable {
    public let code: String

    public init(code: String) { self.code = code }
}
