/// The numbers of the rummy scorekeeper, in one place. Ranges are the seed's where it gives one.
public enum RummyRules {
    public static let pointLimits = 100...350
    /// Cents per point. The seed says only "> 0"; the cap keeps settlements far from overflow.
    public static let pointValues = 1...1_000_000
    /// Seats in a room (the room's `playerCount`).
    public static let playerCounts = 2...10
    public static let roundCount = 6
    /// The highest score one player can be given for one round.
    public static let maxRoundScore = 1000
    public static let nameMaxCharacters = 50
    public static let minPlayersToStart = 2
}
