import ArgumentParser
import ParlorClient
import ParlorRules
import ParlorWire

/// Word lobbies, under `parlor lobby`.
enum LobbyCommands: GameCommands {
    static let title = "word lobbies"
    static let summary = "parlor lobby create / join CODE play the word game; see parlor help lobby."
    static let commands: [any ParsableCommand.Type] = [Lobby.self]
    static let codes = CodeShape(LobbyCode.self, owner: "a word lobby", shape: "4 letters", example: "GDTS", join: ["parlor", "lobby", "join"])

    static func watch(code: String, options: ClientOptions) async throws {
        try await GameSession<LobbyGame>.run(options, .watch(code: code))
    }

    /// The lobby as it was then, with the watcher's own words when they played (the countdown as it
    /// stood at the step).
    static let replay: ReplayDrawing? = ReplayDrawing { frame, width, rows in
        guard let lobby = frame.view.decoded(as: LobbyView.self) else { return nil }
        var state = LobbyScreenState(
            server: frame.server, code: frame.code, lobbyId: lobby.lobbyId, lobby: lobby,
            words: frame.privateView?.decoded(as: PlayerWordsView.self), me: frame.me, now: frame.at)
        state.watching = frame.privateView == nil
        return LobbyScreen.body(state, width: width, rows: rows)
    }
}

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

/// How you show up in a lobby: `--name`, `--color`, `--emoji`. Those left out are what this identity
/// last used in that lobby (joining again would otherwise reset them), else the defaults.
public struct LobbyProfileOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Your name in the lobby (at most \(WordRules.usernameMaxCharacters) characters; default: the last one you used there, else your login name).",
        valueName: "name"))
    public var name: String?

    @Option(help: ArgumentHelp(
        "Your colour, \(WordRules.colorNumbers.lowerBound)–\(WordRules.colorNumbers.upperBound) (default: the last one you used there, else 0).",
        valueName: "n"))
    public var color: Int?

    @Option(help: ArgumentHelp(
        "Your emoji, \(WordRules.emojiNumbers.lowerBound)–\(WordRules.emojiNumbers.upperBound) (default: the last one you used there, else 0).",
        valueName: "n"))
    public var emoji: Int?

    public init() {}

    public func validate() throws {
        if let name, case .failure(let problem) = DisplayName.validate(name, maxCharacters: WordRules.usernameMaxCharacters) {
            throw ValidationError(DisplayName.sentence(for: problem, field: "--name"))
        }
        if let color { try Validation.range(color, WordRules.colorNumbers, option: "--color") }
        if let emoji { try Validation.range(emoji, WordRules.emojiNumbers, option: "--emoji") }
    }

    /// The profile with nothing remembered: what is given, else the defaults.
    public var user: LobbyUserArguments { choice.user(remembered: nil) }

    /// What was given, the rest to be filled in.
    public var choice: LobbyProfileChoice { LobbyProfileChoice(name: name, color: color, emoji: emoji) }
}

/// The lobby profile options as given; those left out are filled in from what was used before.
public struct LobbyProfileChoice: Sendable, Equatable {
    public var name: String?
    public var color: Int?
    public var emoji: Int?

    /// What is given, else what was `remembered`, else the defaults.
    public func user(remembered: LobbyUserArguments?) -> LobbyUserArguments {
        LobbyUserArguments(
            username: name ?? remembered?.username ?? DefaultName.current, colorNumber: color ?? remembered?.colorNumber ?? 0,
            emojiNumber: emoji ?? remembered?.emojiNumber ?? 0)
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
        try await GameSession<LobbyGame>.run(options, .join(code: code, profile.choice))
    }
}

extension Validation {
    /// The lobby code as the server will read it (" gdts" → "GDTS").
    static func lobbyCode(_ text: String) throws -> String {
        try code(text, as: LobbyCode.self)
    }
}
