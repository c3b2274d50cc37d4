import ParlorClient
import ParlorRules
@testable import ParlorTerminal
import ParlorWire
import Testing

/// Removing a player from the screen: the moderator or creator asks, confirms, and the removed player's
/// screen says so and ends.
@Suite("Kick from the screen")
struct KickTests {
    @Test("In a lobby: /kick NAME asks, the same /kick again removes; only the creator, never oneself")
    func lobbyKick() throws {
        var state = LobbyFixtures.screen(try LobbyFixtures.open(), me: LobbyFixtures.ann)
        func type(_ line: String) -> LobbyAction? {
            state.input = line
            return state.handle(.enter)
        }
        #expect(type("/kick bo") == nil)
        #expect(state.message?.text == "Remove Bo from the lobby? Type /kick bo again to confirm.")
        #expect(type("/kick bo") == .remove(LobbyFixtures.bo))
        // Anything else typed in between cancels the question.
        #expect(type("/kick Cy") == nil)
        #expect(type("alpha") == .submitWord("alpha"))
        #expect(type("/kick Cy") == nil)
        #expect(type("/kick Zed") == nil && state.message?.text == "Nobody called Zed sits in this lobby.")
        #expect(type("/kick Ann") == nil && state.message?.text == "To give up your own seat, type /leave.")
        var bo = LobbyFixtures.screen(try LobbyFixtures.open(), me: LobbyFixtures.bo)
        bo.input = "/kick Cy"
        #expect(bo.handle(.enter) == nil && bo.message?.text == "Only the lobby's creator (Ann) can remove a player.")
    }

    @Test("A removed player's lobby screen says so and ends")
    func lobbyRemoved() throws {
        let before = try LobbyFixtures.open()
        var game = LobbyGame(screen: LobbyFixtures.screen(before, me: LobbyFixtures.bo))
        let step = game.receive(.removed, at: LobbyFixtures.start, mode: .interactive)
        #expect(step.ending == .removed && step.outputs.last == .removed(code: LobbyFixtures.code))
        #expect(LobbyOutput.removed(code: LobbyFixtures.code).jsonLine == #"{"code":"GDTS","event":"removed"}"#)
    }

    @Test("In a room: x on a player asks, y removes; only the moderator")
    func roomKick() throws {
        var state = RoomScreenState(server: "ws://localhost:8080/ws", code: "K7Q2MX", room: try RoomFixtures.inRoundTwo(), me: RoomFixtures.ann)
        state.selected = RoomFixtures.bo
        #expect(state.handle(.character("x")) == nil && state.mode == .confirmingKick(RoomFixtures.bo))
        #expect(RoomScreen.messageLine(state).text == "  Remove Bo from the room? Press y to remove, any other key to keep them.")
        #expect(state.handle(.character("y")) == .kick(RoomFixtures.bo))
        #expect(state.handle(.character("x")) == nil)
        #expect(state.handle(.character("n")) == nil && state.mode == .normal)
        var bo = RoomScreenState(server: "ws://localhost:8080/ws", code: "K7Q2MX", room: try RoomFixtures.inRoundTwo(), me: RoomFixtures.bo)
        bo.selected = RoomFixtures.ann
        #expect(bo.handle(.character("x")) == nil && bo.message?.text == "Only the moderator can remove a player.")
        #expect(ScriptCommand.parse("kick bo", in: state) == .success(.action(.kick(RoomFixtures.bo))))
    }
}

extension KickTests {
    @Test("A removed player's room screen says so and ends; one's own leave is not a removal")
    func roomRemoved() throws {
        let before = try RoomFixtures.inRoundTwo()
        let after = try RoomFixtures.withoutBo()
        var game = RoomGame(screen: RoomScreenState(server: "ws://localhost:8080/ws", code: "K7Q2MX", room: before, me: RoomFixtures.bo))
        let step = game.receive(after, at: RoomFixtures.now, mode: .interactive)
        #expect(step.ending == .removed && step.outputs.last == .removed(code: "K7Q2MX"))
        #expect(RoomOutput.removed(code: "K7Q2MX").jsonLine == #"{"code":"K7Q2MX","event":"removed"}"#)
        var leaving = RoomGame(screen: RoomScreenState(server: "ws://localhost:8080/ws", code: "K7Q2MX", room: before, me: RoomFixtures.bo))
        leaving.starting(.leave)
        #expect(leaving.receive(after, at: RoomFixtures.now, mode: .interactive).ending == nil)
    }
}
