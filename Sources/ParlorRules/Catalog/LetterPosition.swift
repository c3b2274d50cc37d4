/// Where a word game's target letter must appear. Unknown values decode as `.unknown` so that
/// `Catalog.validate` can name them instead of the whole catalog failing to load.
public enum LetterPosition: Sendable, Hashable, Codable, CustomStringConvertible {
    case start
    case end
    case contains
    case unknown(String)

    public init(rawValue: String) {
        switch rawValue {
        case "start": self = .start
        case "end": self = .end
        case "contains": self = .contains
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .start: "start"
        case .end: "end"
        case .contains: "contains"
        case .unknown(let value): value
        }
    }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
