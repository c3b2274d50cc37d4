import ParlorClient
import ParlorWire

/// What a session does with each event, as a plain value: the screen state it keeps, what to report,
/// which action to start, and when to stop. `RoomSession` carries the steps out.
struct SessionLogic {
    enum Mode: Sendable, Equatable {
        /// Full screen, keys.
        case interactive
        /// JSON lines out, commands in.
        case scripted
    }

    /// Why a session ends.
    enum Ending: Sendable, Equatable {
        /// The person or script quit, or a signal came.
        case quit
        case left
        case roomDeleted
        /// The client closed under us (it cannot reconnect).
        case connectionClosed

        var exitStatus: Int32 { self == .connectionClosed ? 1 : 0 }
    }

    struct Step: Sendable, Equatable {
        var outputs: [SessionOutput] = []
        /// An action to start; its outcome comes back as `.actionFinished`.
        var action: RoomAction?
        var ending: Ending?
    }

    let mode: Mode
    var screen: RoomScreenState

    init(mode: Mode, screen: RoomScreenState) {
        self.mode = mode
        self.screen = screen
    }

    /// A sentence to leave on the terminal when the full screen closes.
    func farewell(for ending: Ending, server: String) -> String? {
        switch ending {
        case .quit: nil
        case .left: "You left room \(screen.code)."
        case .roomDeleted: "Room \(screen.code) was deleted."
        case .connectionClosed: "The connection to \(server) is closed."
        }
    }

    mutating func handle(_ event: SessionEvent) -> Step {
        var step = Step()
        switch event {
        case .room(let room):
            guard let room else {
                screen.roomDeleted = true
                step.outputs = [.room(nil)]
                step.ending = .roomDeleted
                return step
            }
            if let current = screen.room, room.version <= current.version { return step }
            screen.room = room
            step.outputs = [.room(room)]
        case .roomStreamEnded:
            step.ending = screen.roomDeleted ? .roomDeleted : .connectionClosed
        case .connection(let connection):
            guard connection != screen.connection else { return step }
            screen.connection = connection
            if case .connected(let userId) = connection { screen.me = userId }
            step.outputs = [.status(connection)]
        case .key(let key):
            screen.message = nil
            step.action = screen.handle(key)
        case .line(let line):
            switch ScriptCommand.parse(line, in: screen) {
            case nil:
                break
            case .success(.showRoom)?:
                // Again, even if unchanged: the script asked.
                if let room = screen.room { step.outputs = [.room(room)] }
            case .success(.action(let requested))?:
                step.action = requested
            case .failure(let error)?:
                step.outputs = [.error(action: nil, code: nil, message: error.message)]
            }
        case .inputEnded:
            // Keys: the terminal went away. Lines: the script has said all it will; keep showing the
            // room until a signal or `quit`.
            if mode == .interactive { step.ending = .quit }
        case .resize:
            break
        case .signal:
            step.ending = .quit
        case .actionFinished(let action, .success(let room)):
            if let room, room.version > (screen.room?.version ?? 0) {
                screen.room = room
                step.outputs.append(.room(room))
            }
            step.outputs.append(.done(action))
            if action == .leave {
                step.outputs.append(.left(code: screen.code))
                step.ending = .left
            } else if mode == .interactive {
                screen.message = RoomScreenState.Message(Self.confirmation(action, screen: screen))
            }
        case .actionFinished(let action, .failure(let error)):
            screen.message = RoomScreenState.Message(error.description, isError: true)
            step.outputs = [.error(error, action: action.name)]
        }
        if step.action == .quit {
            step.action = nil
            step.ending = .quit
        }
        return step
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
        case .quit: ""
        }
    }
}
