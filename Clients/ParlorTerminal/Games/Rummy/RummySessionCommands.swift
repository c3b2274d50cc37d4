import ArgumentParser
import ParlorClient
import ParlorRules

/// `parlor create`: a new room, with you as moderator, then the room screen.
public struct Create: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        abstract: "Create a room and take the moderator's seat.",
        discussion: "Prints the room code big enough to read out, then shows the room until you quit.")

    @Option(help: ArgumentHelp("Points at which the game ends (\(RummyRules.pointLimits.lowerBound)–\(RummyRules.pointLimits.upperBound)).", valueName: "points"))
    public var limit: Int = 201

    @Option(help: ArgumentHelp("What one point is worth, in cents.", valueName: "cents"))
    public var value: Int = 25

    @Option(help: ArgumentHelp("Seats at the table (\(RummyRules.playerCounts.lowerBound)–\(RummyRules.playerCounts.upperBound)).", valueName: "count"))
    public var players: Int = 4

    @Option(help: ArgumentHelp("Your name at the table.", valueName: "name"))
    public var name: String = DefaultName.current

    @OptionGroup public var options: ClientOptions

    public init() {}

    public func validate() throws {
        try Validation.range(limit, RummyRules.pointLimits, option: "--limit")
        try Validation.range(value, RummyRules.pointValues, option: "--value")
        try Validation.range(players, RummyRules.playerCounts, option: "--players")
        try Validation.playerName(name, max: RummyRules.nameMaxCharacters)
    }

    public func run() async throws {
        try await GameSession<RoomGame>.run(options, .create(pointLimit: limit, pointValue: value, playerCount: players, playerName: name))
    }
}

/// `parlor join CODE`: a seat in an existing room (or the one you already have), then the room screen.
public struct Join: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        abstract: "Join a room by its code (or come back to your seat in it).")

    @OptionGroup public var room: RoomCodeArgument
    public var code: String { room.code }

    @Option(help: ArgumentHelp("Your name at the table (default: your login name; a seat you already have keeps its name).", valueName: "name"))
    public var name: String?

    @OptionGroup public var options: ClientOptions

    public init() {}

    public func validate() throws {
        if let name { try Validation.playerName(name, max: RummyRules.nameMaxCharacters) }
    }

    public func run() async throws {
        try await GameSession<RoomGame>.run(options, .join(code: code, playerName: name ?? DefaultName.current, nameGiven: name != nil))
    }
}

/// The room-code argument every room command takes, checked and upper-cased before anything is sent.
public struct RoomCodeArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The room's 6-character code.", valueName: "code"))
    public var code: String

    public init() {}

    public mutating func validate() throws { code = try Validation.code(code, of: RoomCode.self, in: RummyCommands.self) }
}
