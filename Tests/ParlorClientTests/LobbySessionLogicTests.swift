import Foundation
import ParlorClient
import ParlorRules
@testable import ParlorTerminal
import ParlorWire
import Testing

/// What a lobby session does with each event, without a terminal or a server: what typed lines and
/// script lines mean, what it reports (and as which JSON), which actions it starts, the sentences of
/// its errors, and when it ends.
@Suite("Lobby session logic")
struct LobbySessionLogicTests {
    private func logic(_ mode: LobbySessionLogic.Mode, me: UserID = LobbyFixtures.bo) -> LobbySessionLogic {
        LobbySessionLogic(mode: mode, screen: LobbyScreenState(
            server: "ws://localhost:8080/ws", code: LobbyFixtures.code, lobbyId: LobbyFixtures.lobbyId, me: me))
    }

    private func update(_ lobby: WordLobby, at seconds: Int = 0) -> LobbySessionEvent {
        let time = LobbyFixtures.start.adding(seconds: seconds)
        return .update(.lobby(LobbyFixtures.view(lobby, serverTime: time)), receivedAt: time)
    }

    @Test("Typed lines: a word unless it starts with /; /start, /start GAMEID, /leave, /quit")
    func typedLines() {
        #expect(LobbyInput.parseTyped("  alpha ") == .success(.action(.submitWord("alpha"))))
        #expect(LobbyInput.parseTyped("Double bass") == .success(.action(.submitWord("Double bass"))))
        #expect(LobbyInput.parseTyped("/start") == .success(.action(.start(gameId: nil))))
        #expect(LobbyInput.parseTyped("/START category-fruits") == .success(.action(.start(gameId: "category-fruits"))))
        #expect(LobbyInput.parseTyped("/leave") == .success(.action(.leave)))
        #expect(LobbyInput.parseTyped("/quit") == .success(.action(.quit)))
        #expect(LobbyInput.parseTyped("   ") == nil)
        #expect(LobbyInput.parseTyped("/start a b") == .failure(ScriptCommandError("/start takes at most one game id (got \"a b\").")))
        #expect(LobbyInput.parseTyped("/leave now") == .failure(ScriptCommandError("/leave takes no arguments (got \"now\").")))
    }

    @Test("Script lines: word WORD (spaces kept), start [GAMEID], leave, lobby, quit")
    func scriptLines() {
        #expect(LobbyInput.parseScript("word alpha") == .success(.action(.submitWord("alpha"))))
        #expect(LobbyInput.parseScript("WORD  Double bass ") == .success(.action(.submitWord("Double bass"))))
        #expect(LobbyInput.parseScript("start") == .success(.action(.start(gameId: nil))))
        #expect(LobbyInput.parseScript("start word-start-b") == .success(.action(.start(gameId: "word-start-b"))))
        #expect(LobbyInput.parseScript("leave") == .success(.action(.leave)))
        #expect(LobbyInput.parseScript("lobby") == .success(.showLobby))
        #expect(LobbyInput.parseScript("quit") == .success(.action(.quit)))
        #expect(LobbyInput.parseScript("") == nil)
        #expect(LobbyInput.parseScript("word") == .failure(ScriptCommandError("word needs the word, e.g. \"word alpha\".")))
        #expect(LobbyInput.parseScript("dance") == .failure(ScriptCommandError(
            "Unknown command \"dance\"; use word WORD, start [GAMEID], kick NAME, rematch, leave, lobby or quit.")))
    }

    @Test("Keys: typing edits the line, Enter sends it, Esc and Ctrl-C quit")
    func keys() throws {
        var state = LobbyFixtures.screen(try LobbyFixtures.inRound())
        for character in "betx" { _ = state.handle(.character(character)) }
        _ = state.handle(.backspace)
        #expect(state.handle(.enter) == .submitWord("bet"))
        #expect(state.input == "")
        #expect(state.handle(.enter) == nil)
        for character in "/start" { _ = state.handle(.character(character)) }
        #expect(state.handle(.enter) == .start(gameId: nil))
        #expect(state.handle(.escape) == .quit)
        #expect(state.handle(.interrupt) == .quit)
        _ = state.handle(.character("a"))
        #expect(state.handle(.endOfInput) == nil)
        state.input = String(repeating: "a", count: LobbyScreenState.maxInputCharacters)
        _ = state.handle(.character("b"))
        #expect(state.input.count == LobbyScreenState.maxInputCharacters)
    }

    @Test("Scripted: newer versions are reported once, your words when they change, the round's end once")
    func scripted() throws {
        var session = logic(.scripted)
        let open = try LobbyFixtures.open()
        #expect(session.handle(update(open)).outputs == [.lobby(LobbyFixtures.view(open, serverTime: LobbyFixtures.start))])
        #expect(session.handle(update(open)).outputs == [])
        let running = try LobbyFixtures.inRound()
        _ = session.handle(update(running, at: 5))
        let words = LobbyFixtures.words(running, for: LobbyFixtures.bo)
        #expect(session.handle(.update(.playerWords(words), receivedAt: LobbyFixtures.start)).outputs == [.playerWords(words)])
        #expect(session.handle(.update(.playerWords(words), receivedAt: LobbyFixtures.start)).outputs == [])

        let ended = try LobbyFixtures.afterRound()
        let view = LobbyFixtures.view(ended, serverTime: LobbyFixtures.start.adding(seconds: 30))
        let results = try #require(view.lastRound)
        #expect(session.handle(update(ended, at: 30)).outputs == [.lobby(view), .roundEnded(results)])
        #expect(results.players.map(\.points) == [3, 1, 0])
        #expect(results.players[0].words.map(\.points) == [1, 2])

        #expect(session.handle(.line("word gamma")).action == .submitWord("gamma"))
        #expect(session.handle(.line("lobby")).outputs == [.lobby(view), .playerWords(words)])
        #expect(session.handle(.inputEnded).ending == nil)
        #expect(session.handle(.line("quit")) == LobbySessionLogic.Step(ending: .quit))
    }

    @Test("Verdicts and errors are reported; on the screen they become the message line")
    func outcomes() throws {
        var session = logic(.interactive)
        _ = session.handle(update(try LobbyFixtures.afterRound(), at: 30))
        let accepted = try JSONDecoder().decode(WordVerdictResult.self, from: Data(#"{"accepted":true,"word":"alpha"}"#.utf8))
        #expect(session.handle(.actionFinished(.submitWord("alpha"), .success(accepted))).outputs
            == [.result(action: "word", verdict: accepted)])
        #expect(session.screen.message == LobbyScreenState.Message("✓ alpha: accepted."))

        let late = ParlorClientError.server(code: .roundNotRunning, status: .failedPrecondition, message: "The round's time is up.")
        let step = session.handle(.actionFinished(.submitWord("beta"), .failure(late)))
        #expect(step.outputs == [.error(action: "word", code: "ROUND_NOT_RUNNING", message: "The round is over; wait for the next one.")])
        #expect(session.screen.message == LobbyScreenState.Message("The round is over; wait for the next one.", isError: true))

        let notCreator = ParlorClientError.server(
            code: .notLobbyCreator, status: .permissionDenied, message: "Only the lobby's creator can start a round.")
        #expect(session.handle(.actionFinished(.start(gameId: nil), .failure(notCreator))).outputs
            == [.error(action: "start", code: "NOT_LOBBY_CREATOR", message: "Only the lobby's creator (Ann) can start a round.")])

        let left = session.handle(.actionFinished(.leave, .success(nil)))
        #expect(left.outputs == [.result(action: "leave", verdict: nil), .left(code: "GDTS")])
        #expect(left.ending == .left)
        #expect(session.farewell(for: .left, server: "ws://x/ws") == "You left lobby GDTS.")
    }

    @Test("Errors as sentences: a full lobby, one in a round, no round yet")
    func sentences() throws {
        let full = ParlorClientError.server(code: .lobbyFull, status: .resourceExhausted, message: "The lobby is full (12 of 12 players).")
        #expect(LobbyErrorSentence.sentence(full, action: nil, code: "ABCD") == "Lobby ABCD is full (12 of 12 players).")
        let busy = ParlorClientError.server(code: .lobbyNotOpen, status: .failedPrecondition, message: "The lobby is in a round; wait until the round ends.")
        #expect(LobbyErrorSentence.sentence(busy, action: nil, code: "ABCD") == "Lobby ABCD is in a round; wait until the round ends.")
        let early = ParlorClientError.server(code: .roundNotRunning, status: .failedPrecondition, message: "No round is running.")
        let waiting = LobbyFixtures.screen(try LobbyFixtures.open())
        #expect(LobbyErrorSentence.sentence(early, action: .submitWord("x"), code: "GDTS", state: waiting)
            == "No round is running yet; wait for Ann to start one.")
        let missing = ParlorClientError.server(code: .gameNotFound, status: .notFound, message: "Game nope is not in the catalog.")
        #expect(LobbyErrorSentence.sentence(missing, action: .start(gameId: "nope"), code: "GDTS")
            == "Game nope is not in the catalog. `parlor lobby games` lists the games.")
        let offline = ParlorClientError.notConnected(reason: "nothing is listening at 127.0.0.1:1")
        #expect(LobbyErrorSentence.sentence(offline, action: nil, code: "GDTS") == offline.description)
    }

    @Test("Deletion and a closed connection end the session")
    func endings() {
        var deleted = logic(.scripted)
        #expect(deleted.handle(.update(.deleted, receivedAt: .epoch)) == LobbySessionLogic.Step(outputs: [.lobby(nil)], ending: .lobbyDeleted))
        #expect(deleted.farewell(for: .lobbyDeleted, server: "ws://x/ws") == "Lobby GDTS was deleted.")
        var closed = logic(.interactive)
        #expect(closed.handle(.streamEnded).ending == .connectionClosed)
        #expect(LobbySessionLogic.Ending.connectionClosed.exitStatus == 1)
        #expect(closed.handle(.signal(15)).ending == .quit)
        #expect(closed.handle(.inputEnded).ending == .quit)
    }

    @Test("JSON lines: one object per event, keys sorted, the lobby with its serverTime")
    func jsonLines() throws {
        #expect(LobbyOutput.joined(code: "GDTS", lobbyId: "L1", userId: LobbyFixtures.bo).jsonLine
            == #"{"code":"GDTS","event":"joined","lobbyId":"L1","userId":"00000000-0000-4000-8000-00000000000b"}"#)
        let rejected = try JSONDecoder().decode(
            WordVerdictResult.self, from: Data(#"{"accepted":false,"word":"omegas","reason":"No."}"#.utf8))
        #expect(LobbyOutput.result(action: "word", verdict: rejected).jsonLine
            == #"{"accepted":false,"action":"word","event":"result","reason":"No.","word":"omegas"}"#)
        #expect(LobbyOutput.result(action: "start", verdict: nil).jsonLine == #"{"action":"start","event":"result"}"#)
        #expect(LobbyOutput.error(action: "word", code: "ROUND_NOT_RUNNING", message: "The round is over; wait for the next one.").jsonLine
            == #"{"action":"word","code":"ROUND_NOT_RUNNING","event":"error","message":"The round is over; wait for the next one."}"#)
        #expect(LobbyOutput.lobby(nil).jsonLine == #"{"event":"lobby","lobby":null}"#)
        #expect(LobbyOutput.status(.connecting).jsonLine == #"{"event":"status","state":"connecting"}"#)

        let view = LobbyFixtures.view(try LobbyFixtures.afterRound(), serverTime: LobbyFixtures.start)
        let line = LobbyOutput.lobby(view).jsonLine
        #expect(line.contains(#""serverTime":"2027-01-15T08:00:00.000Z""#), "\(line)")
        struct Line: Decodable { let event: String; let lobby: LobbyView }
        #expect(try JSONDecoder().decode(Line.self, from: Data(line.utf8)).lobby == view)
        let words = LobbyFixtures.words(try LobbyFixtures.inRound(), for: LobbyFixtures.ann)
        #expect(LobbyOutput.playerWords(words).jsonLine
            == #"{"event":"private","lobbyId":"BD8T95IYI6cf77tvFA1m","round":1,"version":8,"words":[{"accepted":true,"word":"alpha"},{"accepted":true,"word":"Beta"}]}"#)
    }
}

extension LobbySessionLogicTests {
    @Test("While a leave is on its way, the stream ending is its echo: the session ends on the answer")
    func leavingLast() throws {
        var session = logic(.scripted)
        _ = session.handle(update(try LobbyFixtures.open()))
        #expect(session.handle(.line("leave")).action == .leave)
        #expect(session.handle(.update(.deleted, receivedAt: .epoch)) == LobbySessionLogic.Step(outputs: [.lobby(nil)]))
        #expect(session.handle(.streamEnded).ending == nil)
        let left = session.handle(.actionFinished(.leave, .success(nil)))
        #expect(left.outputs == [.result(action: "leave", verdict: nil), .left(code: "GDTS")])
        #expect(left.ending == .left)
    }
}

extension LobbySessionLogicTests {
    @Test("Quitting keeps the seat; the farewell says how to come back as the same player")
    func farewell() throws {
        var session = LobbySessionLogic(
            mode: .interactive,
            screen: LobbyFixtures.screen(try LobbyFixtures.open()),
            clientArguments: ["--profile", "bo"])
        #expect(session.farewell(for: .quit, server: "ws://x/ws")
            == "You are still in lobby GDTS; parlor lobby join GDTS --name Bo --color 8 --emoji 7 --profile bo brings you back.")
        #expect(LobbySessionLogic.shellQuoted("Zoë O'Neil") == #"'Zoë O'\''Neil'"#)
        #expect(session.handle(.key(.escape)).ending == .quit)
    }
}
