import ArgumentParser
import ParlorClient
import ParlorRules
import ParlorWire

/// Rummy rooms, the first game: its commands are `parlor`'s own (`parlor create`, `parlor join CODE`, …).
enum RummyCommands: GameCommands {
    static let title = "rummy rooms"
    static let summary = """
        create, join and watch show the room full screen on a terminal and update it live; the keys \
        are on screen. Without a terminal (or with --json) they print one JSON object per line and \
        read commands from stdin: \(ScriptCommand.usage).
        """
    static let commands: [any ParsableCommand.Type] = [Create.self, Join.self, Ready.self, Start.self, Score.self, Next.self, Leave.self, Show.self]
    static let codes = CodeShape(RoomCode.self, owner: "a room", shape: "6 characters", example: "A1B2C3", join: ["parlor", "join"])

    static func watch(code: String, options: ClientOptions) async throws {
        try await GameSession<RoomGame>.run(options, .watch(code: code))
    }

    static let replay: ReplayDrawing? = ReplayDrawing { frame, width, rows in
        guard let room = frame.view.decoded(as: GameRoom.self) else { return nil }
        return RoomScreen.body(RoomScreenState(server: frame.server, code: frame.code, room: room, me: frame.me), width: width, rows: rows)
    }
}

/// `parlor ready CODE [--off]`.
public struct Ready: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(abstract: "Say you are ready (or, with --off, not ready).")

    @OptionGroup public var room: RoomCodeArgument
    public var code: String { room.code }

    @Flag(help: "Say you are not ready after all.")
    public var off = false

    @OptionGroup public var options: ClientOptions

    public init() {}

    public func run() async throws {
        try await OneShot.run(options) { client throws(ParlorClientError) in
            let room = try await client.setReady(roomCode: code, ready: !off)
            return OneShot.Outcome(room: room, sentence: off ? "You are not ready in room \(code)." : "You are ready in room \(code).")
        }
    }
}

/// `parlor start CODE`.
public struct Start: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(abstract: "Start the game (moderator only; everyone must be ready).")

    @OptionGroup public var room: RoomCodeArgument
    public var code: String { room.code }

    @OptionGroup public var options: ClientOptions

    public init() {}

    public func run() async throws {
        try await OneShot.run(options) { client throws(ParlorClientError) in
            OneShot.Outcome(room: try await client.startGame(roomCode: code), sentence: "The game in room \(code) has started.")
        }
    }
}

/// `parlor score CODE POINTS [--round N] [--player NAME]`.
public struct Score: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        abstract: "Enter a score for a round (yours, or as moderator anyone's).")

    @OptionGroup public var room: RoomCodeArgument
    public var code: String { room.code }

    @Argument(help: ArgumentHelp("The points scored in the round (0–\(RummyRules.maxRoundScore)).", valueName: "points"))
    public var points: Int

    @Option(help: ArgumentHelp("The round (default: the current one).", valueName: "n"))
    public var round: Int?

    @Option(help: ArgumentHelp("Whose score, by name or id (default: yours).", valueName: "player"))
    public var player: String?

    @OptionGroup public var options: ClientOptions

    public init() {}

    public func validate() throws {
        try Validation.range(points, 0...RummyRules.maxRoundScore, option: "points")
        if let round { try Validation.range(round, 1...RummyRules.roundCount, option: "--round") }
    }

    public func run() async throws {
        try await OneShot.run(options) { client throws(ParlorClientError) in
            var round = self.round
            var playerId: UserID?
            if round == nil || player != nil {
                let room = try await client.getRoom(code: code)
                round = round ?? room.currentRound
                if let player {
                    let state = RoomScreenState(server: client.server.url, code: code, room: room)
                    guard let found = ScriptCommand.findPlayer(player, in: state) else {
                        throw .invalidConfiguration("There is no player \"\(player)\" in room \(code)")
                    }
                    playerId = found
                }
            }
            let finalRound = round ?? 1
            let room = try await client.submitScore(roomCode: code, playerId: playerId, round: finalRound, score: points)
            let name = room.players.first { $0.id == (playerId ?? client.userId) }?.name ?? "The player"
            return OneShot.Outcome(room: room, sentence: "\(name) scores \(points) in round \(finalRound) of room \(code).")
        }
    }
}

/// `parlor next CODE`.
public struct Next: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        abstract: "Close the current round (moderator only); after the last round or at the point limit the game ends.")

    @OptionGroup public var room: RoomCodeArgument
    public var code: String { room.code }

    @OptionGroup public var options: ClientOptions

    public init() {}

    public func run() async throws {
        try await OneShot.run(options) { client throws(ParlorClientError) in
            let room = try await client.nextRound(roomCode: code)
            let sentence = room.isFinished ? "The game in room \(code) is over." : "Round \(room.currentRound) of room \(code) has begun."
            return OneShot.Outcome(room: room, sentence: sentence)
        }
    }
}

/// `parlor leave CODE`.
public struct Leave: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(abstract: "Give up your seat in a room.")

    @OptionGroup public var room: RoomCodeArgument
    public var code: String { room.code }

    @OptionGroup public var options: ClientOptions

    public init() {}

    public func run() async throws {
        try await OneShot.run(options) { client throws(ParlorClientError) in
            try await client.leaveRoom(roomCode: code)
            return OneShot.Outcome(output: .left(code: code), sentence: "You left room \(code).")
        }
    }
}

/// `parlor show CODE`: the room once, as the screen would show it.
public struct Show: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(abstract: "Print a room once and exit.")

    @OptionGroup public var room: RoomCodeArgument
    public var code: String { room.code }

    @OptionGroup public var options: ClientOptions

    public init() {}

    public func run() async throws {
        try await OneShot.run(options) { client throws(ParlorClientError) in
            let room = try await client.getRoom(code: code)
            let state = RoomScreenState(server: client.server.url, code: code, room: room, me: client.userId)
            let shown = RoomScreen.printable(state, width: TerminalDevice.size().width)
            return OneShot.Outcome(output: .room(room), sentence: shown.joined(separator: "\n"))
        }
    }
}

extension OneShot.Outcome {
    init(room: GameRoom, sentence: String) {
        self.init(output: .room(room), sentence: sentence)
    }

    init(output: RoomOutput, sentence: String) {
        self.init(jsonLine: output.jsonLine, sentence: sentence)
    }
}
