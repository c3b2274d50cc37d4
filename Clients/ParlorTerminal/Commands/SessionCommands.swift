import ArgumentParser
import Foundation
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
        try Validation.playerName(name)
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
        if let name { try Validation.playerName(name) }
    }

    public func run() async throws {
        try await GameSession<RoomGame>.run(options, .join(code: code, playerName: name ?? DefaultName.current, nameGiven: name != nil))
    }
}

/// `parlor watch CODE`: any game's screen without taking a seat — a room, a word lobby, a darts match
/// or a photo quiz, told by the code.
public struct Watch: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        abstract: "Watch any game as a spectator: a room, a word lobby, a darts match or a photo quiz.",
        discussion: """
            The code says which: 6 characters a rummy room, 4 letters a word lobby, 5 a darts match or a \
            photo quiz. If you already have a seat in a room, a match or a quiz, your keys still work; in a \
            word lobby you see what every player sees (words once a round is over).
            """)

    @Argument(help: ArgumentHelp("The game's code.", valueName: "code"))
    public var code: String

    @OptionGroup public var places: PlacesOption
    @OptionGroup public var options: ClientOptions

    public init() {}

    public mutating func validate() throws {
        do throws(WatchedCodeError) {
            code = try Self.watched(code).code
        } catch {
            throw ValidationError(error.description)
        }
    }

    static func watched(_ text: String) throws(WatchedCodeError) -> (game: WatchedCode, code: String) {
        let game = try WatchedCode.parse(text)
        switch game {
        case .room(let code), .lobby(let code), .match(let code), .quiz(let code), .matchOrQuiz(let code): return (game, code)
        }
    }

    public func run() async throws {
        var game = try Self.watched(code).game
        if case .matchOrQuiz = game {
            let client = try options.makeClient()
            let resolved = await client.whileConnected { _ -> Result<WatchedCode, ParlorClientError> in
                do throws(ParlorClientError) {
                    return .success(try await game.resolve(with: client))
                } catch {
                    return .failure(error)
                }
            }
            switch resolved {
            case .success(let decided): game = decided
            case .failure(let error):
                StandardStreams.printError(error.description)
                throw ExitCode.failure
            }
        }
        switch game {
        case .room(let code): try await GameSession<RoomGame>.run(options, .watch(code: code))
        case .lobby(let code): try await GameSession<LobbyGame>.run(options, .watch(code: code))
        case .match(let code): try await GameSession<MatchGame>.run(options, .watch(code: code))
        case .quiz(let code), .matchOrQuiz(let code): try await GameSession<QuizGame>.run(options, .watch(code: code, places: places.lookup()))
        }
    }
}

extension GameSession {
    /// Runs the session these options ask for; a status other than 0 ends the command with it.
    static func run(_ options: ClientOptions, _ entry: Game.Entry) async throws {
        var session = GameSession(
            client: try options.makeClient(), entry: entry, mode: options.isInteractive ? .interactive : .scripted)
        if options.server != ClientOptions.defaultServer { session.clientArguments += ["--server", options.server] }
        if let profile = options.profile { session.clientArguments += ["--profile", profile] }
        let status = await session.run()
        if status != 0 { throw ExitCode(status) }
    }
}

/// The name to sit down with when none is given: the login name, capitalized.
enum DefaultName {
    static var current: String {
        let user = ProcessInfo.processInfo.environment["USER"] ?? ""
        guard let first = user.first, user.count <= RummyRules.nameMaxCharacters else { return "Player" }
        return first.uppercased() + user.dropFirst()
    }
}
