import ParlorClient
import ParlorRules

/// What a session does with each event, as a plain value: the screen state it keeps, what to report,
/// which action to start, and when to stop. `GameSession` carries the steps out. The connection, the
/// end of input, signals and the shape of a script's line are the same in every game and handled
/// here; the rest is the game's (`TerminalGame`).
struct GameSessionLogic<Game: TerminalGame> {
    typealias Mode = SessionMode
    typealias Ending = SessionEnding

    struct Step: Sendable, Equatable {
        var outputs: [Game.Output] = []
        /// An action to start; its outcome comes back as `.actionFinished`.
        var action: Game.Action?
        var ending: Ending?
        /// More actions to start after `action`: those kept while the connection was down.
        var resent: [Game.Action] = []
    }

    let mode: Mode
    /// The game's side of the session: its screen, and whatever else it remembers.
    private(set) var game: Game
    /// Options a command in a farewell repeats (`--server`, `--profile`) so it comes back as the same user.
    let clientArguments: [String]
    /// This device's clock as of the latest event that carried it (updates, ticks).
    private var clock = Instant.epoch
    /// When the message now on the line was put there, by `clock`.
    private var messageSince = Instant.epoch
    /// Actions that found no connection: sent again, in order, when it is back.
    private(set) var queued: [Game.Action] = []

    private static func isClosed(_ connection: ConnectionState) -> Bool {
        if case .closed = connection { return true }
        return false
    }

    static var queuedSentence: String { "Not connected: what you asked is kept and sent when the connection is back." }

    var screen: Game.Screen { game.screen }

    init(mode: Mode, screen: Game.Screen, clientArguments: [String] = []) {
        self.mode = mode
        self.game = Game(screen: screen)
        self.clientArguments = clientArguments
    }

    /// A sentence to leave on the terminal after the full screen is gone.
    func farewell(for ending: Ending, server: String, closedReason: String? = nil) -> String? {
        let place = Game.placeName
        switch ending {
        case .quit: return game.farewellAfterQuit(clientArguments: clientArguments)
        case .left: return "You left \(place) \(screen.code)."
        case .removed: return "You were removed from \(place) \(screen.code)."
        case .rematch(let code): return "The rematch is in \(place) \(code)."
        case .deleted:
            let placeAndCode = "\(place.prefix(1).uppercased() + place.dropFirst()) \(screen.code)"
            guard let closedReason else { return "\(placeAndCode) was deleted." }
            return "\(placeAndCode) was closed by the server's operator: \(closedReason)"
        case .connectionClosed: return "The connection to \(server) is closed."
        }
    }

    mutating func handle(_ event: SessionEvent<Game>) -> Step {
        let messageBefore = screen.message
        let step = react(to: event)
        if screen.message != messageBefore { messageSince = clock }
        return step
    }

    private mutating func react(to event: SessionEvent<Game>) -> Step {
        var step = Step()
        switch event {
        case .update(let update, let receivedAt):
            clock = max(clock, receivedAt)
            step = game.receive(update, at: receivedAt, mode: mode)
        case .streamEnded:
            step.ending = game.streamEnded()
        case .connection(let connection):
            guard connection != screen.connection else { return step }
            game.screen.connection = connection
            if case .connected(let userId) = connection {
                game.screen.me = userId
                // An error shown while the connection was down ("Not connected …") is about the outage.
                if game.screen.message?.isError == true || game.screen.message?.text == Self.queuedSentence {
                    game.screen.message = nil
                }
                if let first = queued.first {
                    step.action = first
                    step.resent = Array(queued.dropFirst())
                    queued = []
                }
            }
            step.outputs = [.status(connection)]
        case .presence(let presence):
            // Drawn on the next screen; a script's JSON lines carry the views, not who is connected.
            game.screen.presence = presence
        case .access(let access):
            // The status bar says "private" and "locked" from the next screen on.
            game.screen.access = access
        case .key(let key):
            step.action = game.press(key)
        case .line(let line):
            switch game.scriptRequest(line) {
            case nil:
                break
            case .success(.show)?:
                step.outputs = game.snapshot
            case .success(.action(let requested))?:
                step.action = requested
            case .failure(let error)?:
                step.outputs = [.error(action: nil, code: nil, message: error.message)]
            }
        case .inputEnded:
            // Keys: the terminal went away. Lines: the script has said all it will; keep reporting
            // until a signal or `quit`.
            if mode == .interactive { step.ending = .quit }
        case .resize:
            break
        case .tick(let now):
            clock = max(clock, now)
            game.tick(now)
            if let seconds = screen.message?.seconds, messageSince.milliseconds(until: clock) >= Int64(seconds) * 1000 {
                game.screen.message = nil
            }
        case .signal:
            step.ending = .quit
        case .actionFinished(let action, .success(let result)):
            step = game.succeeded(action, with: result, mode: mode)
        case .actionFinished(let action, .failure(.notConnected(let reason))) where !Self.isClosed(screen.connection):
            // Never sent: safe to send again once connected, instead of losing what was typed.
            _ = game.failed(action, with: .notConnected(reason: reason))
            queued.append(action)
            game.screen.message = ScreenMessage(Self.queuedSentence, seconds: nil)
        case .actionFinished(let action, .failure(let error)):
            step = game.failed(action, with: error)
        }
        if step.action == .quit {
            step.action = nil
            step.ending = .quit
        }
        if let action = step.action { game.starting(action) }
        for action in step.resent { game.starting(action) }
        return step
    }
}
