/// A seat in a rummy room. The player's id is their user's id.
public struct RummyPlayer: Sendable, Equatable, Codable, Identifiable {
    public let id: UserID
    public let name: String
    public internal(set) var isReady: Bool
    public internal(set) var isModerator: Bool
    /// Empty before the game starts; one entry per round (`RummyRules.roundCount`) from the start.
    public internal(set) var scores: [Int]

    public init(id: UserID, name: String, isReady: Bool, isModerator: Bool, scores: [Int] = []) {
        self.id = id
        self.name = name
        self.isReady = isReady
        self.isModerator = isModerator
        self.scores = scores
    }

    public var totalScore: Int { scores.reduce(0, +) }
}
