import NIOCore
import ParlorRules

/// How the server runs word lobbies and the game catalog. Every field has the default the server runs with.
public struct WordGameConfiguration: GameConfiguration {
    /// Where the English word list comes from. The default is Debian's `wamerican`
    /// (`apt-get install wamerican`); a missing file stops the server at start-up.
    public var wordList: WordListSource = .file(WordListSource.defaultPath)
    /// Players a lobby seats (`LOBBY_FULL` beyond). Between 1 and 100.
    public var lobbyCapacity: Int = WordRules.defaultCapacity
    /// Lobbies the server holds at once; creating more fails with `NO_FREE_CODE` (`resource-exhausted`).
    public var maxLobbies: Int = 100_000
    /// The codes lobbies are given: 4 letters A-Z. Injectable so a test can use a space small enough to exhaust
    /// (every code in it must still be 4 letters A-Z).
    public var lobbyCodes: CodeSpace = .lobbyCodes
    /// How often the server looks in the store for a catalog imported by `parlor-server catalog import`
    /// and publishes it to `observeCatalog` subscribers. Nil: never (the catalog changes only at start-up).
    public var catalogPollInterval: TimeAmount? = .seconds(5)

    public init() {}

    /// Refuses settings the server cannot run with, in a sentence an operator can act on.
    func validate() throws(WordGameConfigurationError) {
        guard WordRules.capacities.contains(lobbyCapacity) else {
            throw WordGameConfigurationError(
                "The lobby capacity must be between \(WordRules.capacities.lowerBound) and \(WordRules.capacities.upperBound) players (got \(lobbyCapacity)).")
        }
        guard maxLobbies > 0 else { throw WordGameConfigurationError("The lobby limit must be positive (got \(maxLobbies)).") }
        guard lobbyCodes.length == LobbyCode.space.length, lobbyCodes.alphabet.allSatisfy(LobbyCode.space.alphabet.contains) else {
            throw WordGameConfigurationError("Lobby codes must be \(LobbyCode.space.length) letters A-Z.")
        }
    }
}

extension ServerConfiguration {
    /// Word lobbies and the game catalog: the word list, lobby capacity and limits, the catalog poll.
    public var wordGames: WordGameConfiguration {
        get { games[WordGameConfiguration.self] }
        set { games[WordGameConfiguration.self] = newValue }
    }
}

/// A word game setting the server cannot run with.
public struct WordGameConfigurationError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}

/// Where the word list comes from.
public enum WordListSource: Sendable {
    /// A file of one word per line, such as `/usr/share/dict/words`.
    case file(String)
    /// Words held in memory (tests).
    case words(SetWordList)

    public static let defaultPath = "/usr/share/dict/words"
}
