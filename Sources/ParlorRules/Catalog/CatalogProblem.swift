/// One thing wrong with a catalog, at a JSON path such as `gameModes[1].levels[0].games[3].targetLetter`.
public struct CatalogProblem: Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`
    public var description: String { "\(path): \(message)" }
}
