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
        #expect(RoomScreen.keysLine(ann).text == "  [m] rematch  [l] leave  [q] quit")
        var bo = RoomScreenState(server: "ws://localhost:8080/ws", code: "K7Q2MX", room: try RoomFixtures.finished(), me: RoomFixtures.bo)
        #expect(bo.handle(.character("m")) == nil && bo.message?.text == "Only the moderator can start a rematch.")
        var early = RoomScreenState(server: "ws://localhost:8080/ws", code: "K7Q2MX", room: try RoomFixtures.inRoundTwo(), me: RoomFixtures.ann)
        #expect(early.handle(.character("m")) == nil && early.message?.text == "A rematch starts once the game is over.")
        #expect(ScriptCommand.parse("rematch", in: ann) == .success(.action(.rematch)))
    }

    @Test("A room that names its rematch ends this session in favour of the rematch's room")
    func following() throws {
        let finished = try RoomFixtures.finished()
        var game = RoomGame(screen: RoomScreenState(server: "ws://localhost:8080/ws", code: "K7Q2MX", room: finished, me: RoomFixtures.bo))
        let told = try RoomFixtures.rematched(to: "Q1W2E3")
        let step = game.receive(told, at: RoomFixtures.now, mode: .interactive)
        #expect(step.ending == .rematch(code: "Q1W2E3") && step.outputs.last == .rematch(code: "Q1W2E3"))
        guard case .watch(let code)? = RoomGame.rematchEntry(code: "Q1W2E3") else {
            Issue.record("the rematch is not entered by its code")
            return
        }
        #expect(code == "Q1W2E3")
        #expect(RoomOutput.rematch(code: "Q1W2E3").jsonLine == #"{"code":"Q1W2E3","event":"rematch"}"#)
    }
}
