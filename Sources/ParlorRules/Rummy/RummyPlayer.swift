/// A seat in a rummy room. The player's id is their user's id.
public struct RummyPlayer: Sendable, Equatable, Codable, Identifiable {
    public let id: UserID
    public let name: String
    public internal(set) var isReady: Bool
    public internal(set) var isModerator: Bool
    /// Empty before the game starts; one entry per round (`RummyRules.roundCount`) from the start.
    public internal(set) var scores: [Int]
    /// Beside `scores`: whether someone entered that round's score. A round nobody entered counts 0,
    /// like a round won, and a screen shows the difference.
    public internal(set) var entered: [Bool]

    /// `entered` left out: the rounds with a score other than 0.
    public init(id: UserID, name: String, isReady: Bool, isModerator: Bool, scores: [Int] = [], entered: [Bool]? = nil) {
        self.id = id
        self.name = name
        self.isReady = isReady
        self.isModerator = isModerator
        self.scores = scores
        self.entered = entered ?? scores.map { $0 != 0 }
    }

    private enum CodingKeys: String, CodingKey { case id, name, isReady, isModerator, scores, entered }

    /// Rooms stored before `entered` existed read it as the rounds with a score other than 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UserID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        isReady = try container.decode(Bool.self, forKey: .isReady)
        isModerator = try container.decode(Bool.self, forKey: .isModerator)
        scores = try container.decode([Int].self, forKey: .scores)
        let stored = try container.decodeIfPresent([Bool].self, forKey: .entered)
        entered = stored?.count == scores.count ? stored ?? [] : scores.map { $0 != 0 }
    }

    public var totalScore: Int { scores.reduce(0, +) }

    /// Whether round `round` (1-based) has a score someone entered.
    public func hasEntered(round: Int) -> Bool {
        scores.indices.contains(round - 1) && entered.indices.contains(round - 1) && entered[round - 1]
    }
}
