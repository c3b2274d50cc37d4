import ArgumentParser
import ParlorClient
import ParlorRules
import ParlorWire

/// Darts matches, under `parlor darts`.
enum DartsCommands: GameCommands {
    static let title = "darts matches"
    static let summary = "parlor darts create / join CODE / watch CODE keep a live darts scoreboard; see parlor help darts."
    static let commands: [any ParsableCommand.Type] = [Darts.self]
    static let codes = CodeShape(MatchCode.self, owner: "a darts match", shape: "5 characters", example: "3QX7K", join: ["parlor", "darts", "join"])

    static func watch(code: String, options: ClientOptions) async throws {
        try await GameSession<MatchGame>.run(options, .watch(code: code))
    }

    static let replay: ReplayDrawing? = ReplayDrawing { frame, width, rows in
        guard let match = frame.view.decoded(as: MatchView.self) else { return nil }
        return MatchScreen.body(MatchScreenState(server: frame.server, code: frame.code, match: match, me: frame.me), width: width, rows: rows)
    }
}

/// `parlor darts …`: live x01 darts matches. Players gather by a 5-character code; the host starts and
/// may score for everyone (guests included); everyone — players and spectators — sees every visit as it
/// is entered.
public struct Darts: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        abstract: "Play darts (301, 501, 701): a live scoreboard shared by everyone at the board and watching.",
        discussion: """
            create, join and watch show the scoreboard full screen on a terminal: type the visit of the \
            player to throw — its darts (T20 T20 D16; S, D, T, 25, DB, M for a miss) or its total (100) — \
            and press Enter; ↑ edits the last visit, /undo takes it back; /start starts (the host), \
            /guest NAME adds a guest the host scores for, /kick NAME removes a guest or player before the \
            start, /rematch plays a finished match again, /leave gives up your seat, Esc or Ctrl-C closes \
            the terminal and keeps it. Without a terminal (or with --json) they print one JSON object per \
            line and read commands from stdin: \(MatchInput.scriptUsage).
            """,
        subcommands: [DartsCreate.self, DartsJoin.self, DartsWatch.self])

    public init() {}
}

/// `parlor darts create`: a new match with you as host, then the scoreboard.
public struct DartsCreate: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a darts match; you host it and may score for everyone.",
        discussion: "Shows the match code big enough to read out, then the scoreboard until you quit.")

    @Option(help: ArgumentHelp("301, 501 or 701.", valueName: "score"))
    public var game: String = "501"

    @Option(name: .customLong("in"), help: ArgumentHelp("How a leg starts: straight, double or master.", valueName: "rule"))
    public var inRule: String = "straight"

    @Option(name: .customLong("out"), help: ArgumentHelp("How a leg ends: double, straight or master.", valueName: "rule"))
    public var outRule: String = "double"

    @Option(help: ArgumentHelp("Legs to win (a set, with --sets) (\(DartsLimits.legs.lowerBound)–\(DartsLimits.legs.upperBound)).", valueName: "n"))
    public var legs: Int = 1

    @Option(help: ArgumentHelp("Sets to win the match (\(DartsLimits.sets.lowerBound)–\(DartsLimits.sets.upperBound)); none by default.", valueName: "n"))
    public var sets: Int?

    @Option(help: ArgumentHelp(
        "Players at the board, guests included (\(DartsLimits.capacity.lowerBound)–\(DartsLimits.capacity.upperBound)).", valueName: "count"))
    public var players: Int = DartsLimits.defaultCapacity

    @Option(help: ArgumentHelp("Your name on the scoreboard.", valueName: "name"))
    public var name: String = DefaultName.current

    @Option(help: ArgumentHelp("A guest without an account, whose visits you enter (repeat for more).", valueName: "name"))
    public var guest: [String] = []

    @OptionGroup public var options: ClientOptions

    public init() {}

    public func validate() throws {
        try Validation.oneOf(game, X01GameType.self, option: "--game")
        try Validation.oneOf(inRule, InRule.self, option: "--in")
        try Validation.oneOf(outRule, OutRule.self, option: "--out")
        try Validation.range(legs, DartsLimits.legs, option: "--legs")
        if let sets { try Validation.range(sets, DartsLimits.sets, option: "--sets") }
        try Validation.range(players, DartsLimits.capacity, option: "--players")
        guard guest.count < players else {
            throw ValidationError("--players \(players) leaves no seat for \(guest.count) guest\(guest.count == 1 ? "" : "s") and you.")
        }
        try Validation.playerName(name, max: DartsLimits.nameMaxCharacters)
        for guest in guest { try Validation.playerName(guest, max: DartsLimits.nameMaxCharacters, option: "--guest") }
    }

    public func run() async throws {
        let arguments = CreateMatchArguments(
            gameType: game, inRule: inRule, outRule: outRule, legs: legs, sets: sets, capacity: players, playerName: name)
        try await GameSession<MatchGame>.run(options, .create(arguments, guests: guest))
    }
}

/// `parlor darts join CODE`: a seat in a match (or back to yours), then the scoreboard.
public struct DartsJoin: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Join a darts match by its code (or come back to your seat in it).")

    @Argument(help: ArgumentHelp("The match's 5-character code.", valueName: "code"))
    public var code: String

    @Option(help: ArgumentHelp("Your name on the scoreboard.", valueName: "name"))
    public var name: String = DefaultName.current

    @OptionGroup public var options: ClientOptions

    public init() {}

    public mutating func validate() throws {
        code = try Validation.code(code, as: MatchCode.self)
        try Validation.playerName(name, max: DartsLimits.nameMaxCharacters)
    }

    public func run() async throws {
        try await GameSession<MatchGame>.run(options, .join(code: code, playerName: name))
    }
}

/// `parlor darts watch CODE`: the scoreboard without taking a seat.
public struct DartsWatch: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Watch a darts match as a spectator.",
        discussion: "If you have a seat in the match (or host it), your typing still works.")

    @Argument(help: ArgumentHelp("The match's 5-character code.", valueName: "code"))
    public var code: String

    @OptionGroup public var options: ClientOptions

    public init() {}

    public mutating func validate() throws {
        code = try Validation.code(code, as: MatchCode.self)
    }

    public func run() async throws {
        try await GameSession<MatchGame>.run(options, .watch(code: code))
    }
}
