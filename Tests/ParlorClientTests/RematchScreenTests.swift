import ParlorClient
import ParlorRules
@testable import ParlorTerminal
import ParlorWire
import Testing

/// The rematch on the room screen: the moderator's m key once the game is over, and every session
/// following the room going on to the rematch's room.
@Suite("Rematch on the room screen")
struct RematchScreenTests {
    @Test("The moderator of a finished room presses m; nobody else, never before the end")
    func rematchKey() throws {
        var ann = RoomScreenState(server: "ws://localhost:8080/ws", code: "K7Q2MX", room: try RoomFixtures.finished(), me: RoomFixtures.ann)
        #expect(ann.handle(.character("m")) == .rematch)
        #expect(RoomScreen.keysLine(ann).text == "  [m] rematch  [?] help  [q] quit")
        var bo = RoomScreenState(server: "ws://localhost:8080/ws", code: "K7Q2MX", room: try RoomFixtures.finished(), me: RoomFixtures.bo)
        #expect(bo.handle(.character("m")) == nil && bo.message?.text == "Only the moderator can start a rematch.")
        var early = RoomScreenState(server: "ws://localhost:8080/ws", code: "K7Q2MX", room: try RoomFixtures.inRoundTwo(), me: RoomFixtures.ann)
        #expect(early.handle(.character("m")) == nil && early.message?.text == "A rematch starts once the game is over.")
        #expect(ScriptCommand.parse("rematch", in: ann) == .success(.action(.rematch)))
    }

    @Test("A finished lobby that names its rematch: the session rejoins there with the same profile")
    func lobbyFollowing() throws {
        var lobby = try LobbyMatchEndScreenTests.finished()
        _ = try lobby.apply(
            .recordRematch(code: LobbyCode(uncheckedRawValue: "WXYZ")), by: .user(LobbyFixtures.ann), at: LobbyFixtures.start,
            in: WordLobbyEnvironment(catalog: Catalog(version: 1, updatedAt: LobbyFixtures.start, gameModes: []), wordList: SetWordList([])))
        var game = LobbyGame(screen: LobbyFixtures.screen(try LobbyMatchEndScreenTests.finished(), me: LobbyFixtures.bo))
        let step = game.receive(.lobby(LobbyFixtures.view(lobby, serverTime: LobbyFixtures.start)), at: LobbyFixtures.start, mode: .interactive)
        #expect(step.ending == .rematch(code: "WXYZ") && step.outputs.last == .rematch(code: "WXYZ"))
        guard case .join(let code, let user)? = LobbyGame.rematchEntry(code: "WXYZ", from: game.screen) else {
            Issue.record("the rematch is not joined")
            return
        }
        #expect(code == "WXYZ" && user == LobbyProfileChoice(name: "Bo", color: 8, emoji: 7))
        var ann = LobbyFixtures.screen(try LobbyMatchEndScreenTests.finished(), me: LobbyFixtures.ann)
        ann.input = "/rematch"
        #expect(ann.handle(.enter) == .rematch)
    }

    @Test("A room that names its rematch ends this session in favour of the rematch's room")
    func following() throws {
        let finished = try RoomFixtures.finished()
        var game = RoomGame(screen: RoomScreenState(server: "ws://localhost:8080/ws", code: "K7Q2MX", room: finished, me: RoomFixtures.bo))
        let told = try RoomFixtures.rematched(to: "Q1W2E3")
        let step = game.receive(told, at: RoomFixtures.now, mode: .interactive)
        #expect(step.ending == .rematch(code: "Q1W2E3") && step.outputs.last == .rematch(code: "Q1W2E3"))
        guard case .watch(let code)? = RoomGame.rematchEntry(code: "Q1W2E3", from: game.screen) else {
            Issue.record("the rematch is not entered by its code")
            return
        }
        #expect(code == "Q1W2E3")
        #expect(RoomOutput.rematch(code: "Q1W2E3").jsonLine == #"{"code":"Q1W2E3","event":"rematch"}"#)
    }
}
