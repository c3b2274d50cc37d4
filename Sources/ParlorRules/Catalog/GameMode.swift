/// A top-level kind of play ("Word", "Category") and its levels, easiest first.
public struct GameMode: Sendable, Equatable, Codable, Identifiable {
    public var id: String
    public var name: String
    public var description: String
    public var levels: [Level]

    public init(id: String, name: String, description: String = "", levels: [Level]) {
        self.id = id
        self.name = name
        self.description = description
        self.levels = levels
    }
}

/// A step of difficulty within a game mode.
public struct Level: Sendable, Equatable, Codable, Identifiable {
    public var id: String
    public var name: String
    public var description: String
    /// 1 (easiest) … 5.
    public var difficulty: Int
    public var games: [Game]

    public init(id: String, name: String, description: String = "", difficulty: Int, games: [Game]) {
        self.id = id
        self.name = name
        self.description = description
        self.difficulty = difficulty
        self.games = games
    }
}
