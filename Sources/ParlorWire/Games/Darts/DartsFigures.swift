import ParlorRules

/// A player's statistics as the wire sends them — the one definition of their fields, spelled two ways:
/// camelCase with `legsWon` in the live view (`MatchView.Stats`), snake_case without it in history
/// (`MatchRecord.Stats`, the seed's `matches` table, whose players carry `legs_won` beside them).
/// docs/PROTOCOL.md defines each figure.
public struct DartsFigures<Spelling: DartsFiguresSpelling>: Sendable, Equatable, Codable {
    public let threeDartAverage: Double
    public let firstNineAverage: Double
    public let checkoutPercent: Double
    public let highestCheckout: Int
    public let count180: Int
    public let count140Plus: Int
    public let count100Plus: Int
    public let dartsThrown: Int
    /// In the live view only.
    public let legsWon: Int?

    public init(_ statistics: DartsStatistics) {
        threeDartAverage = statistics.threeDartAverage
        firstNineAverage = statistics.firstNineAverage
        checkoutPercent = statistics.checkoutPercent
        highestCheckout = statistics.highestCheckout
        count180 = statistics.count180
        count140Plus = statistics.count140Plus
        count100Plus = statistics.count100Plus
        dartsThrown = statistics.dartsThrown
        legsWon = Spelling.hasLegsWon ? statistics.legsWon : nil
    }

    /// The fields' names, as the spelling writes them.
    public enum CodingKeys: Int, CodingKey, CaseIterable {
        case threeDartAverage, firstNineAverage, checkoutPercent, highestCheckout, count180, count140Plus, count100Plus
        case dartsThrown, legsWon

        public var stringValue: String { Spelling.name(Self.swiftNames[rawValue]) }
        public var intValue: Int? { nil }

        public init?(stringValue: String) {
            guard let index = Self.swiftNames.firstIndex(where: { Spelling.name($0) == stringValue }) else { return nil }
            self.init(rawValue: index)
        }

        public init?(intValue _: Int) { nil }

        private static var swiftNames: [String] { dartsFigureNames }
    }
}

/// `DartsFigures.CodingKeys`' Swift names, in the cases' order.
private let dartsFigureNames = [
    "threeDartAverage", "firstNineAverage", "checkoutPercent", "highestCheckout", "count180", "count140Plus",
    "count100Plus", "dartsThrown", "legsWon",
]

/// How `DartsFigures` spells its fields.
public protocol DartsFiguresSpelling: Sendable {
    /// A field's name, from its Swift (camelCase) name.
    static func name(_ camelCase: String) -> String
    /// Whether legs won are among the figures.
    static var hasLegsWon: Bool { get }
}

/// The live view's spelling: the Swift names.
public enum LiveSpelling: DartsFiguresSpelling {
    public static func name(_ camelCase: String) -> String { camelCase }
    public static let hasLegsWon = true
}

/// History's spelling, the seed's: snake_case, a number its own word (`count_140_plus`).
public enum HistorySpelling: DartsFiguresSpelling {
    public static func name(_ camelCase: String) -> String {
        var name = ""
        var previous: Character?
        for character in camelCase {
            if character.isUppercase || (character.isNumber && previous?.isNumber == false) { name.append("_") }
            name.append(contentsOf: character.lowercased())
            previous = character
        }
        return name
    }

    public static let hasLegsWon = false
}
