import Foundation
import ParlorClient
import ParlorWire

/// What a lobby session does with each event, as a plain value: the screen state it keeps, what to
/// report, which action to start, and when to stop. `LobbySession` carries the steps out.
struct LobbySessionLogic {
    typealias Mode = SessionLogic.Mode

    /// Why a session ends.
    enum Ending: Sendable, Equatable {
        /// The person or script quit, or a signal came.
        case quit
        case left
        case lobbyDeleted
        /// The client closed under us (it cannot reconnect).
        case connectionClosed

        var exitStatus: Int32 { self == .connectionClosed ? 1 : 0 }
    }

    struct Step: Sendable, Equatable {
        var outputs: [LobbyOutput] = []
        /// An action to start; its outcome comes back as `.actionFinished`.
        var action: LobbyAction?
        var ending: Ending?
    }

    let mode: Mode
    var screen: LobbyScreenState
    /// A leave was sent and not yet answered: the stream ending (or the lobby going, when we were the
    /// last) is its echo, and the session ends on the answer instead, so a script always sees it.
    private(set) var leaving = false

    /// Options the rejoin command repeats (`--server`, `--profile`) so it comes back as the same user.
    let clientArguments: [String]

    init(mode: Mode, screen: LobbyScreenState, clientArguments: [String] = []) {
        self.mode = mode
        self.screen = screen
        self.clientArguments = clientArguments
    }

    /// A sentence to leave on the terminal after the full screen is gone.
    func farewell(for ending: Ending, server: String) -> String? {
        switch ending {
        case .quit: "You are still in lobby \(screen.code); \(rejoinCommand) brings you back."
        case .left: "You left lobby \(screen.code)."
        case .lobbyDeleted: "Lobby \(screen.code) was deleted."
        case .connectionClosed: "The connection to \(server) is closed."
        }
    }

    /// The command that comes back as the same player: joining again updates the profile, so it repeats
    /// the name, colour and emoji.
    var rejoinCommand: String {
        var words = ["parlor", "lobby", "join", screen.code]
        if let player = screen.myPlayer {
            words += ["--name", Self.shellQuoted(player.username)]
            if player.colorNumber != 0 { words += ["--color", String(player.colorNumber)] }
            if player.emojiNumber != 0 { words += ["--emoji", String(player.emojiNumber)] }
        }
        return (words + clientArguments.map(Self.shellQuoted)).joined(separator: " ")
    }

    static func shellQuoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:/@+,=".contains($0)) }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    mutating func handle(_ event: LobbySessionEvent) -> Step {
        var step = Step()
        switch event {
        case .update(.lobby(let view), let receivedAt):
            let previous = screen.lobby
            guard screen.receive(view, at: receivedAt) else { return step }
            step.outputs = [.lobby(view)]
            if let previous, let results = view.lastRound, results.number != previous.lastRound?.number {
                step.outputs.append(.roundEnded(results))
                if mode == .interactive { screen.message = Message("Round \(results.number) is over.") }
            } else if let round = view.round, view.status == "GAME", previous?.round?.number != round.number, previous != nil {
                if mode == .interactive { screen.message = Message("Round \(round.number) has started: type words and press Enter.") }
            }
        case .update(.playerWords(let words), _):
            if screen.receive(words) { step.outputs = [.playerWords(words)] }
        case .update(.deleted, _):
            screen.deleted = true
            step.outputs = [.lobby(nil)]
            if !leaving { step.ending = .lobbyDeleted }
        case .streamEnded:
            if !leaving { step.ending = screen.deleted ? .lobbyDeleted : .connectionClosed }
        case .connection(let connection):
            guard connection != screen.connection else { return step }
            screen.connection = connection
            if case .connected(let userId) = connection { screen.me = userId }
            step.outputs = [.status(connection)]
        case .key(let key):
            // The last verdict stays in view while the next word is typed; Enter makes way for the next.
            if key == .enter { screen.message = nil }
            step.action = screen.handle(key)
        case .line(let line):
            switch LobbyInput.parseScript(line) {
            case nil:
                break
            case .success(.showLobby)?:
                // Again, even if unchanged: the script asked.
                if let lobby = screen.lobby { step.outputs = [.lobby(lobby)] }
                if let words = screen.words { step.outputs.append(.playerWords(words)) }
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
            screen.now = now
        case .signal:
            step.ending = .quit
        case .actionFinished(let action, .success(let verdict)):
            step.outputs = [.result(action: action.name, verdict: verdict)]
            if action == .leave {
                step.outputs.append(.left(code: screen.code))
                step.ending = .left
            } else if let verdict {
                screen.message = verdict.accepted
                    ? Message("✓ \(verdict.word): accepted.")
                    : Message(verdict.reason ?? "\"\(verdict.word)\" was not accepted.", isError: true)
            }
        case .actionFinished(let action, .failure(let error)):
            let sentence = LobbyErrorSentence.sentence(error, action: action, code: screen.code, state: screen)
            screen.message = Message(sentence, isError: true)
            step.outputs = [.error(action: action.name, code: error.serverCode?.rawValue, message: sentence)]
            if action == .leave {
                leaving = false
                if screen.deleted { step.ending = .lobbyDeleted }
            }
        }
        if step.action == .quit {
            step.action = nil
            step.ending = .quit
        }
        if step.action == .leave { leaving = true }
        return step
    }

    private typealias Message = LobbyScreenState.Message
}
