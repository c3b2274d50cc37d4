/// The x01 games the seed plays (`game_type`), each named by the score a leg starts from.
public enum X01GameType: String, Sendable, Codable, CaseIterable {
    case x301 = "301"
    case x501 = "501"
    case x701 = "701"

    public var startingScore: Int {
        switch self {
        case .x301: 301
        case .x501: 501
        case .x701: 701
        }
    }
}

/// How a player starts scoring in a leg: with any dart, or only from the first double (master: double
/// or treble) on; darts before it score nothing.
public enum InRule: String, Sendable, Codable, CaseIterable {
    case straight
    case double
    case master

    /// Whether `dart` opens a player's scoring under this rule.
    public func opens(with dart: Dart) -> Bool {
        switch self {
        case .straight: true
        case .double: dart.isDouble
        case .master: dart.isDouble || dart.isTreble
        }
    }
}

/// How a leg must end: on any dart, on a double (the bull included), or on a double or treble (master).
public enum OutRule: String, Sendable, Codable, CaseIterable {
    case straight
    case double
    case master

    /// Whether `dart`, bringing the score to exactly zero, wins the leg.
    public func finishes(with dart: Dart) -> Bool {
        switch self {
        case .straight: dart != .miss
        case .double: dart.isDouble
        case .master: dart.isDouble || dart.isTreble
        }
    }

    /// Whether a score of `remaining` can no longer be finished, so reaching it is a bust: 1 under
    /// double and master out (no double or treble is worth 1).
    public func isDeadEnd(_ remaining: Int) -> Bool {
        remaining == 1 && self != .straight
    }
}

/// How one match is played: which x01, the in and out rules, and how many legs (and sets) win it.
public struct X01Settings: Sendable, Equatable, Codable {
    public var gameType: X01GameType
    public var inRule: InRule
    public var outRule: OutRule
    /// Legs to win a set, or the match when there are no sets (first to N).
    public var legs: Int
    /// Sets to win the match (first to N); nil for a match of legs only.
    public var sets: Int?
    /// Players the match seats, guests included.
    public var capacity: Int

    public init(
        gameType: X01GameType, inRule: InRule = .straight, outRule: OutRule = .double, legs: Int = 1, sets: Int? = nil,
        capacity: Int = DartsLimits.defaultCapacity
    ) {
        self.gameType = gameType
        self.inRule = inRule
        self.outRule = outRule
        self.legs = legs
        self.sets = sets
        self.capacity = capacity
    }
}

/// The numbers of darts matches, in one place.
public enum DartsLimits {
    /// First to 1…15 legs (a set, or the match).
    public static let legs = 1...15
    /// First to 1…13 sets.
    public static let sets = 1...13
    /// Players at the board, guests included; one is a practice match.
    public static let capacity = 1...8
    public static let defaultCapacity = 4
    public static let nameMaxCharacters = 50
    /// Darts in one visit.
    public static let dartsPerVisit = 3
    /// The most a visit entered as a total can be.
    public static let maxVisitTotal = 180
}

extension X01Settings {
    /// Reads settings as a client spelled them (`"501"`, `"double"`); a value that is none of the
    /// rule's names is refused naming its field. Ranges are checked when the match is created.
    public init(
        gameType: String, inRule: String?, outRule: String?, legs: Int?, sets: Int?, capacity: Int?
    ) throws(DartsError) {
        self.init(
            gameType: try Self.read(gameType, as: X01GameType.self, field: "gameType"),
            inRule: try inRule.map { text throws(DartsError) in try Self.read(text, as: InRule.self, field: "inRule") } ?? .straight,
            outRule: try OutRule(reading: outRule),
            legs: legs ?? 1, sets: sets, capacity: capacity ?? DartsLimits.defaultCapacity)
    }

    static func read<Rule: RawRepresentable & CaseIterable>(_ text: String, as: Rule.Type, field: String) throws(DartsError) -> Rule
    where Rule.RawValue == String {
        guard let rule = Rule(rawValue: text) else {
            let names = Rule.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw .invalidInput(field: field, reason: "\(field) must be one of \(names) (got \"\(DartsError.clip(text))\").")
        }
        return rule
    }
}

extension OutRule {
    /// Reads an out rule a client sent; absent means double out.
    public init(reading text: String?) throws(DartsError) {
        self = try text.map { text throws(DartsError) in try X01Settings.read(text, as: OutRule.self, field: "outRule") } ?? .double
    }
}
