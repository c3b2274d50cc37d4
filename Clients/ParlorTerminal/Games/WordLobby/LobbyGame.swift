import Foundation
import ParlorClient
import ParlorRules
import ParlorWire

/// Word lobbies on the terminal: create or join a lobby by its code; typing and `/` commands are
/// `LobbyScreenState.handle` and `LobbyInput`; the screen is `LobbyScreen`, with the round's countdown.
struct LobbyGame: EndsOnTheLeavesAnswer {
    enum Entry: Sendable {
        case create(LobbyUserArguments, rounds: Int?)
        /// The options as given: those left out come from what this identity last used in the lobby.
        case join(code: String, LobbyProfileChoice)
        /// The public view by the code, without a seat.
        case watch(code: String)
    }

    static let render = LobbyScreen.render
    static let placeName = "lobby"

    var screen: LobbyScreenState
    var leaving = false

    init(screen: LobbyScreenState) {
        self.screen = screen
    }

    // MARK: Reactions

    mutating func receive(_ update: LobbyUpdate, at receivedAt: Instant, mode: SessionMode) -> Step {
        var step = Step()
        switch update {
        case .lobby(let view):
            let previous = screen.lobby
            guard screen.receive(view, at: receivedAt) else { return step }
            step.outputs = [.lobby(view)]
            if let rematch = view.rematch?.rawValue {
                // Everyone in the lobby goes on to the rematch, where they are seated already.
                step.outputs.append(.rematch(code: rematch))
                step.ending = .rematch(code: rematch)
                return step
            }
            if !leaving, let me = screen.me, previous?.players.contains(where: { $0.userId == me }) == true,
               !view.players.contains(where: { $0.userId == me }) {
                // Taken off by the creator: the seat is gone, and so is this screen.
                step.outputs.append(.removed(code: screen.code))
                step.ending = .removed
                return step
            }
            if let previous, let results = view.lastRound, results.number != previous.lastRound?.number {
                step.outputs.append(.roundEnded(results))
                if mode == .interactive {
                    screen.message = view.status == .finished
                        ? Message("The match is over: " + LobbyScreen.winnersText(view, me: screen.me) + ".")
                        : Message("Round \(results.number) is over.")
                }
            } else if let round = view.round, view.status == .game, previous?.round?.number != round.number, previous != nil {
                if mode == .interactive { screen.message = Message("Round \(round.number) has started: type words and press Enter.") }
            }
        case .playerWords(let words):
            if screen.receive(words) { step.outputs = [.playerWords(words)] }
        case .removed:
            if leaving { return step }
            step.outputs = [.removed(code: screen.code)]
            step.ending = .removed
        case .deleted:
            step = deletion(.lobby(nil))
        }
        return step
    }

    mutating func press(_ key: Key) -> LobbyAction? {
        // The last verdict stays in view while the next word is typed; Enter makes way for the next.
        if key == .enter { screen.message = nil }
        return screen.handle(key)
    }

    func scriptRequest(_ line: String) -> Result<ScriptRequest<LobbyAction>, ScriptCommandError>? {
        LobbyInput.parseScript(line).map { parsed in
            parsed.flatMap { input in
                switch input {
                case .action(let action): .success(.action(action))
                case .showLobby: .success(.show)
                // A script's line is its confirmation.
                case .kick(let name): screen.removal(named: name).map { .action(.remove($0.userId)) }
                }
            }
        }
    }

    var snapshot: [LobbyOutput] {
        (screen.lobby.map { [.lobby($0)] } ?? []) + (screen.words.map { [.playerWords($0)] } ?? [])
    }

    mutating func succeeded(_ action: LobbyAction, with verdict: WordVerdictResult?, mode _: SessionMode) -> Step {
        var step = Step(outputs: [.result(action: action.name, verdict: verdict)])
        if !leaveAnswered(action, &step), let verdict {
            screen.message = verdict.accepted
                ? Message("✓ \(verdict.word): accepted.")
                : Message(verdict.reason ?? "\"\(verdict.word)\" was not accepted.", isError: true)
        }
        return step
    }

    mutating func failed(_ action: LobbyAction, with error: ParlorClientError) -> Step {
        failure(action, error, sentence: LobbyErrorSentence.sentence(error, action: action, code: screen.code, state: screen))
    }

    mutating func tick(_ now: Instant) {
        screen.now = now
    }

    func farewellAfterQuit(clientArguments: [String]) -> String? {
        if screen.watching {
            return "\((["parlor", "watch", screen.code] + clientArguments.map(Self.shellQuoted)).joined(separator: " ")) watches again."
        }
        return "You are still in lobby \(screen.code); \(rejoinCommand(clientArguments: clientArguments)) brings you back."
    }

    /// The command that comes back as the same player: joining again updates the profile, so it repeats
    /// the name, colour and emoji.
    func rejoinCommand(clientArguments: [String]) -> String {
        var words = ["parlor", "lobby", "join", screen.code]
        if let player = screen.myPlayer {
            words += ["--name", Self.shellQuoted(player.username)]
            if player.colorNumber != 0 { words += ["--color", String(player.colorNumber)] }
            if player.emojiNumber != 0 { words += ["--emoji", String(player.emojiNumber)] }
        }
        return (words + clientArguments.map(Self.shellQuoted)).joined(separator: " ")
    }

    static func shellQuoted(_ text: String) -> String { ComeBackCommand.shellQuoted(text) }

    private typealias Message = LobbyScreenState.Message

    // MARK: The server

    static func enter(
        _ entry: Entry, client: ParlorClient
    ) async throws(ParlorClientError) -> (screen: LobbyScreenState, outputs: [LobbyOutput]) {
        let code: String
        let lobbyId: String
        let memory = LobbyProfileMemory(client.configuration)
        /// Nil when watching: a watcher has no seat to remember.
        let user: LobbyUserArguments?
        switch entry {
        case .create(let created, let rounds):
            user = created
            let result = try await client.createLobby(user: created, rounds: rounds)
            (code, lobbyId) = (result.lobbyCode, result.lobbyId)
        case .join(let joinCode, let options):
            code = joinCode
            let joining = options.user(remembered: memory.profile(inLobby: joinCode))
            user = joining
            lobbyId = try await client.joinLobby(code: joinCode, user: joining).lobbyId
        case .watch(let watchCode):
            // The id arrives with the first view.
            user = nil
            (code, lobbyId) = (watchCode, "")
        }
        if let user { memory.remember(user, inLobby: code) }
        var screen = LobbyScreenState(
            server: client.server.url, code: code, lobbyId: lobbyId, me: client.userId, now: DeviceClock.now())
        if case .watch = entry { screen.watching = true }
        return (screen, [.joined(code: code, lobbyId: lobbyId, userId: client.userId)])
    }

    static func follow(
        _ screen: LobbyScreenState, client: ParlorClient
    ) async throws(ParlorClientError) -> AsyncStream<LobbyUpdate> {
        screen.watching ? try await client.watchLobby(code: screen.code) : try await client.observeLobby(lobbyId: screen.lobbyId)
    }

    /// A submitted word's verdict; nothing for the other actions.
    static func perform(
        _ action: LobbyAction, in screen: LobbyScreenState, client: ParlorClient
    ) async throws(ParlorClientError) -> WordVerdictResult? {
        switch action {
        case .submitWord(let word): return try await client.submitWord(lobbyId: screen.lobbyId, word: word)
        case .start(let gameId):
            try await client.startLobbyGame(lobbyId: screen.lobbyId, gameId: gameId)
            return nil
        case .leave:
            try await client.leaveLobby(lobbyId: screen.lobbyId)
            return nil
        case .remove(let player):
            try await client.removeLobbyPlayer(lobbyId: screen.lobbyId, userId: player)
            return nil
        case .rematch:
            // The lobby's next version names the rematch; the session follows it from the stream.
            _ = try await client.rematchLobby(lobbyId: screen.lobbyId)
            return nil
        case .quit: return nil
        }
    }

    /// A seat in the rematch: joining again with the same profile (the seat is there already); a
    /// spectator watches it.
    static func rematchEntry(code: String, from screen: LobbyScreenState) -> Entry? {
        guard let player = screen.myPlayer, !screen.watching else { return .watch(code: code) }
        return .join(code: code, LobbyProfileChoice(name: player.username, color: player.colorNumber, emoji: player.emojiNumber))
    }

    static func refusal(_ error: ParlorClientError, entering entry: Entry) -> String {
        var code = ""
        if case .join(let joinCode, _) = entry { code = joinCode }
        if case .watch(let watchCode) = entry { code = watchCode }
        return LobbyErrorSentence.sentence(error, action: nil, code: code)
    }
}

extension LobbyScreenState: DeletableScreen {}
extension LobbyAction: GameAction {}

// MARK: The names the lobby session's tests use

typealias LobbySessionLogic = GameSessionLogic<LobbyGame>
typealias LobbySessionEvent = SessionEvent<LobbyGame>

extension GameSessionLogic where Game == LobbyGame {
    static func shellQuoted(_ text: String) -> String { LobbyGame.shellQuoted(text) }
}

extension SessionEnding {
    static var lobbyDeleted: Self { .deleted }
}
