/// Bounds a catalog must respect. Every field has a default; tests or operators may tighten them.
public struct CatalogLimits: Sendable, Equatable {
    public var maxGameModes = 20
    public var maxLevelsPerMode = 50
    public var maxGamesPerLevel = 100
    public var maxAnswersPerGame = 2000
    public var maxIDLength = 64
    public var maxNameLength = 100
    public var maxDescriptionLength = 500
    public var maxInstructionsLength = 1000
    public var maxAnswerLength = WordRules.maxWordLength
    public var difficulties = 1...5
    public var timeLimits = WordRules.timeLimits

    public init() {}

    public static let `default` = CatalogLimits()
}
