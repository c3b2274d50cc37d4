import ArgumentParser
import ParlorClient
import ParlorRules
import ParlorWire

/// `parlor lobby …`: the word game. Players gather in a lobby by its 4-letter code; the creator starts
/// timed rounds; everyone types words; the server judges and scores them.
public struct Lobby: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        abstract: "Play the word game: join a lobby by its 4-letter code and play timed rounds.",
        discussion: """
            create and join show the lobby full screen on a terminal: type a word and press Enter to \
            submit it; /start (or /start GAMEID) starts a round (the creator only), /leave gives up your \
            seat, /quit or Esc or Ctrl-C closes the terminal and keeps your seat. Without a terminal (or \
            with --json) they print one JSON object per line and read commands from stdin: word WORD, \
            start [GAMEID], leave, lobby, quit.
            """,
        subcommands: [LobbyCreate.self, LobbyJoin.self, LobbyGames.self])

    public init() {}
}

/// How you show up in a lobby: `--name`, `--color`, `--emoji`.
public struct LobbyProfileOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Your name in the lobby (at most \(WordRules.usernameMaxCharacters) characters).", valueName: "name"))
    public var name: String = DefaultName.current

    @Option(help: ArgumentHelp(
        "Your colour, \(WordRules.colorNumbers.lowerBound)–\(WordRules.colorNumbers.upperBound).", valueName: "n"))
    public var color: Int = 0

    @Option(help: ArgumentHelp(
        "Your emoji, \(WordRules.emojiNumbers.lowerBound)–\(WordRules.emojiNumbers.upperBound).", valueName: "n"))
    public var emoji: Int = 0

    public init() {}

    public func validate() throws {
        if case .failure(let problem) = DisplayName.validate(name, maxCharacters: WordRules.usernameMaxCharacters) {
            throw ValidationError(DisplayName.sentence(for: problem, field: "--name"))
        }
        try Validation.range(color, WordRules.colorNumbers, option: "--color")
        try Validation.range(emoji, WordRules.emojiNumbers, option: "--emoji")
    }

    public var user: LobbyUserArguments {
        LobbyUserArguments(username: name, colorNumber: color, emojiNumber: emoji)
    }
}

/// `parlor lobby create`: a new lobby with you as its creator, then the lobby screen.
public struct LobbyCreate: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a word lobby; you start its rounds.",
        discussion: "Shows the lobby code big enough to read out, then the lobby until you quit.")

    @OptionGroup public var profile: LobbyProfileOptions
    @Option(help: "Rounds in the match, 1 to 50; after the last one the lobby names its winner. The server's default (5) when left out.")
    public var rounds: Int?
    @OptionGroup public var options: ClientOptions

    public init() {}

    public func validate() throws {
        if let rounds, !WordRules.matchRounds.contains(rounds) {
            throw ValidationError("--rounds must be between \(WordRules.matchRounds.lowerBound) and \(WordRules.matchRounds.upperBound) (got \(rounds)).")
        }
    }

    public func run() async throws {
        try await GameSession<LobbyGame>.run(options, .create(profile.user, rounds: rounds))
    }
}

/// `parlor lobby join CODE`: a seat in a lobby (or back to yours), then the lobby screen.
public struct LobbyJoin: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Join a word lobby by its code (or come back to your seat in it).")

    @Argument(help: ArgumentHelp("The lobby's 4-letter code.", valueName: "code"))
    public var code: String

    @OptionGroup public var profile: LobbyProfileOptions
    @OptionGroup public var options: ClientOptions

    public init() {}

    public mutating func validate() throws {
        code = try Validation.lobbyCode(code)
    }

    public func run() async throws {
        try await GameSession<LobbyGame>.run(options, .join(code: code, profile.user))
    }
}

extension Validation {
    /// The lobby code as the server will read it (" gdts" → "GDTS").
    static func lobbyCode(_ text: String) throws -> String {
        try code(text, as: LobbyCode.self)
    }
}
