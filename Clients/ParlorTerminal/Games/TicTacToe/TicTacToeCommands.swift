import ArgumentParser
import ParlorRules

/// Tic-tac-toe, under `parlor tictactoe`.
enum TicTacToeCommands: GameCommands {
    static let title = "tic-tac-toe"
    static let summary = "parlor tictactoe create / join CODE / watch CODE play tic-tac-toe; see parlor help tictactoe."
    static let commands: [any ParsableCommand.Type] = [TicTacToeCommand.self]
    static let codes = CodeShape(TicTacToeCode.self, owner: "a tic-tac-toe game", shape: "7 digits", example: "4819273", join: ["parlor", "tictactoe", "join"])

    static func watch(code: String, options: ClientOptions) async throws {
        try await GameSession<TicTacToeSession>.run(options, .watch(code: code))
    }

    static let replay: ReplayDrawing? = ReplayDrawing { frame, width, rows in
        guard let game = frame.view.decoded(as: TicTacToeView.self) else { return nil }
        return TicTacToeScreen.body(TicTacToeScreenState(server: frame.server, code: frame.code, game: game, me: frame.me), width: width, rows: rows)
    }
}

/// `parlor tictactoe …`: two players, three in a row.
public struct TicTacToeCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "tictactoe",
        abstract: "Play tic-tac-toe: X creates, O joins by the 7-digit code, three in a row wins.",
        discussion: """
            create, join and watch show the board full screen on a terminal: 1–9 mark a cell (row by row), \
            or the arrows move and Enter marks; r starts a rematch once the game is over; l leaves (during a \
            game the other player wins); q, Esc or Ctrl-C close the terminal and keep your seat. Without a \
            terminal (or with --json) they print one JSON object per line and read commands from stdin: \
            \(TicTacToePlay.scriptUsage).
            """,
        subcommands: [TicTacToeCreate.self, TicTacToeJoin.self, TicTacToeWatch.self])

    public init() {}
}

/// `parlor tictactoe create`: a new game with you as X, then the board.
public struct TicTacToeCreate: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create a game; you play X.", discussion: "Shows the code big enough to read out until O joins.")

    @Option(help: ArgumentHelp("Your name (at most \(TicTacToe.maxNameCharacters) characters).", valueName: "name"))
    public var name: String = DefaultName.current

    @OptionGroup public var options: ClientOptions

    public init() {}

    public func validate() throws {
        try Validation.playerName(name, max: TicTacToe.maxNameCharacters)
    }

    public func run() async throws {
        try await GameSession<TicTacToeSession>.run(options, .create(playerName: name))
    }
}

/// `parlor tictactoe join CODE`: the second seat (or back to yours), then the board.
public struct TicTacToeJoin: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "join", abstract: "Join a game by its code as O (or come back to your seat in it).")

    @Argument(help: ArgumentHelp("The game's 7-digit code.", valueName: "code"))
    public var code: String

    @Option(help: ArgumentHelp("Your name (at most \(TicTacToe.maxNameCharacters) characters).", valueName: "name"))
    public var name: String = DefaultName.current

    @OptionGroup public var options: ClientOptions

    public init() {}

    public mutating func validate() throws {
        code = try Validation.code(code, of: TicTacToeCode.self, in: TicTacToeCommands.self)
        try Validation.playerName(name, max: TicTacToe.maxNameCharacters)
    }

    public func run() async throws {
        try await GameSession<TicTacToeSession>.run(options, .join(code: code, playerName: name))
    }
}

/// `parlor tictactoe watch CODE`: the board without taking a seat.
public struct TicTacToeWatch: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Watch a game as a spectator.", discussion: "If you have a seat in the game, your keys still work.")

    @Argument(help: ArgumentHelp("The game's 7-digit code.", valueName: "code"))
    public var code: String

    @OptionGroup public var options: ClientOptions

    public init() {}

    public mutating func validate() throws {
        code = try Validation.code(code, of: TicTacToeCode.self, in: TicTacToeCommands.self)
    }

    public func run() async throws {
        try await TicTacToeCommands.watch(code: code, options: options)
    }
}
