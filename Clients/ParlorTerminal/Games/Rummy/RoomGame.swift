import ParlorClient
import ParlorRules
import ParlorWire

/// Rummy rooms on the terminal: create, join or watch a room by its code; the keys and the script
/// commands are `RoomScreenState.handle` and `ScriptCommand`; the screen is `RoomScreen`.
struct RoomGame: TerminalGame {
    enum Entry: Sendable {
        case create(pointLimit: Int, pointValue: Int, playerCount: Int, playerName: String)
        /// `nameGiven`: `--name` was on the command line, so a seat under another name is refused.
        case join(code: String, playerName: String, nameGiven: Bool = false)
        case watch(code: String)
    }

    static let render = RoomScreen.render
    static let placeName = "room"

    var screen: RoomScreenState
    /// Actions sent and not yet answered: the stream may show their effect first, and that is no news.
    private(set) var pending: [RoomAction] = []
    /// A leave was sent: a room without our seat is its echo, not a removal.
    private var leaving: Bool { pending.contains(.leave) }

    init(screen: RoomScreenState) {
        self.screen = screen
    }

    // MARK: Reactions

    /// A room from the stream (nil: deleted); an older or equal version than shown is not news.
    mutating func receive(_ room: GameRoom?, at _: Instant, mode _: SessionMode) -> Step {
        guard let room else {
            screen.roomDeleted = true
            return Step(outputs: [.room(nil)], ending: .deleted)
        }
        if let current = screen.room, room.version <= current.version { return Step() }
        // The message spoke of the room as it was; what changed replaces it (or nothing does).
        if let current = screen.room, screen.mode == .normal {
            screen.message = RoomAnnouncement.sentence(from: current, to: room, me: screen.me, pending: pending)
                .map { ScreenMessage($0) }
        }
        let previous = screen.room
        screen.room = room
        if let me = screen.me, previous?.players.contains(where: { $0.id == me }) == true, !room.players.contains(where: { $0.id == me }),
           !leaving {
            // The moderator took the seat away: say so and end.
            return Step(outputs: [.room(room), .removed(code: screen.code)], ending: .removed)
        }
        if let rematch = room.rematch?.rawValue {
            // Everyone following the room goes on to the rematch, seated or watching.
            return Step(outputs: [.room(room), .rematch(code: rematch)], ending: .rematch(code: rematch))
        }
        return Step(outputs: [.room(room)])
    }

    func streamEnded() -> SessionEnding? {
        screen.roomDeleted ? .deleted : .connectionClosed
    }

    mutating func press(_ key: Key) -> RoomAction? {
        screen.message = nil
        return screen.handle(key)
    }

    func scriptRequest(_ line: String) -> Result<ScriptRequest<RoomAction>, ScriptCommandError>? {
        ScriptCommand.parse(line, in: screen).map { parsed in
            parsed.map { command in
                switch command {
                case .action(let action): .action(action)
                case .showRoom: .show
                }
            }
        }
    }

    var snapshot: [RoomOutput] {
        screen.room.map { [.room($0)] } ?? []
    }

    mutating func starting(_ action: RoomAction) {
        pending.append(action)
    }

    private mutating func answered(_ action: RoomAction) {
        if let index = pending.firstIndex(of: action) { pending.remove(at: index) }
    }

    /// The reply's room comes first (the stream's copy of it is then not repeated), then what was done.
    mutating func succeeded(_ action: RoomAction, with room: GameRoom?, mode: SessionMode) -> Step {
        answered(action)
        var step = Step()
        if let room, room.version > (screen.room?.version ?? 0) {
            screen.room = room
            step.outputs.append(.room(room))
        }
        step.outputs.append(.done(action))
        if action == .leave {
            step.outputs.append(.left(code: screen.code))
            step.ending = .left
        } else if mode == .interactive {
            screen.message = ScreenMessage(Self.confirmation(action, screen: screen))
        }
        return step
    }

    mutating func failed(_ action: RoomAction, with error: ParlorClientError) -> Step {
        answered(action)
        screen.message = ScreenMessage(error.description, isError: true)
        return Step(outputs: [.error(error, action: action.name)])
    }

    /// The command that comes back: to the seat if there is one (kept after the end too), else to watch.
    func farewellAfterQuit(clientArguments: [String]) -> String? {
        guard !screen.roomDeleted else { return nil }
        return ComeBackCommand.farewell(
            game: ["parlor"], place: "room", code: screen.code, seated: screen.mySeat != nil, clientArguments: clientArguments)
    }

    static func confirmation(_ action: RoomAction, screen: RoomScreenState) -> String {
        switch action {
        case .setReady(true): "You are ready."
        case .setReady(false): "You are not ready."
        case .start: "The game has started."
        case .submitScore(let player, let round, let score):
            "\(screen.room?.players.first { $0.id == player }?.name ?? "The player") scores \(score) in round \(round)."
        case .nextRound: screen.room?.isFinished == true ? "The game is over." : "Round \(screen.room?.currentRound ?? 0) has begun."
        case .leave: "You left the room."
        case .kick: "The player was removed."
        case .rematch: "The rematch has started."
        case .quit: ""
        }
    }

    // MARK: The server

    static func enter(
        _ entry: Entry, client: ParlorClient
    ) async throws(ParlorClientError) -> (screen: RoomScreenState, outputs: [RoomOutput]) {
        let seat: RoomServiceResult
        switch entry {
        case .create(let pointLimit, let pointValue, let playerCount, let playerName):
            seat = try await client.createRoom(
                pointLimit: pointLimit, pointValue: pointValue, playerCount: playerCount, playerName: playerName)
        case .join(let code, let playerName, let nameGiven):
            seat = try await client.joinRoom(code: code, playerName: playerName)
            if nameGiven, let mine = seat.room.players.first(where: { $0.id == seat.currentUserId }),
               let refusal = SeatIdentity.refusal(asked: playerName, seated: mine.name, code: seat.room.id.rawValue, profile: client.configuration.profile) {
                throw .invalidConfiguration(refusal)
            }
        case .watch(let code):
            return (RoomScreenState(server: client.server.url, code: code), [])
        }
        let screen = RoomScreenState(server: client.server.url, code: seat.room.id.rawValue, room: seat.room, me: seat.currentUserId)
        return (screen, [.seat(seat)])
    }

    static func follow(
        _ screen: RoomScreenState, client: ParlorClient
    ) async throws(ParlorClientError) -> AsyncStream<GameRoom?> {
        try await client.observeRoom(code: screen.code)
    }

    /// The room the server answers with, if any.
    static func perform(
        _ action: RoomAction, in screen: RoomScreenState, client: ParlorClient
    ) async throws(ParlorClientError) -> GameRoom? {
        let code = screen.code
        switch action {
        case .setReady(let ready): return try await client.setReady(roomCode: code, ready: ready)
        case .start: return try await client.startGame(roomCode: code)
        case .submitScore(let player, let round, let score):
            return try await client.submitScore(roomCode: code, playerId: player, round: round, score: score)
        case .nextRound: return try await client.nextRound(roomCode: code)
        case .leave:
            try await client.leaveRoom(roomCode: code)
            return nil
        case .kick(let player):
            try await client.leaveRoom(roomCode: code, playerId: player)
            return nil
        case .rematch:
            // The room's next version names the rematch; the session follows it from the stream.
            _ = try await client.rematchRoom(roomCode: code)
            return nil
        case .quit: return nil
        }
    }

    /// The rematch's room: its players are seated already, so watching it is taking the seat (the keys
    /// work for whoever has one).
    static func rematchEntry(code: String, from _: RoomScreenState) -> Entry? { .watch(code: code) }

    static func refusal(_ error: ParlorClientError, entering _: Entry) -> String {
        error.description
    }
}

extension RoomScreenState: GameScreen {}
extension RoomAction: GameAction {}

// MARK: The names the room session's tests use (from before lobbies came)

typealias SessionLogic = GameSessionLogic<RoomGame>

extension SessionEvent where Game == RoomGame {
    /// A room from the stream; the room never reads the time it came.
    static func room(_ room: GameRoom?) -> Self { .update(room, receivedAt: .epoch) }
    static var roomStreamEnded: Self { .streamEnded }
}

extension SessionEnding {
    static var roomDeleted: Self { .deleted }
}
