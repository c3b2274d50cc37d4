/// The numbers and the normalisation of the word game, in one place.
public enum WordRules {
    /// Longest word or answer accepted, in Characters after trimming.
    public static let maxWordLength = 64
    /// Shortest word accepted in a word game.
    public static let minWordLength = 2
    /// Submissions one player may make in one round.
    public static let maxWordsPerRound = 500
    public static let usernameMaxCharacters = 30
    public static let colorNumbers = 0...15
    public static let emojiNumbers = 0...63
    public static let defaultCapacity = 12
    public static let capacities = 1...100
    public static let timeLimits = 10...600
    /// Rounds in a match when the creator does not say.
    public static let defaultRounds = 5
    public static let matchRounds = 1...50

    /// The form in which two answers are compared: trimmed, and lowercased unless the game is case-sensitive.
    public static func normalized(_ word: String, caseSensitive: Bool) -> String {
        let trimmed = word.trimmingWhitespace()
        return caseSensitive ? trimmed : trimmed.lowercased()
    }
}
