import ParlorClient
import ParlorRules
@testable import ParlorTerminal
import ParlorWire
import Testing

/// What a running session does with each event, without a terminal or a server: what it reports,
/// which actions it starts, and when it ends.
@Suite("Session logic")
struct SessionLogicTests {
    private func logic(_ mode: SessionLogic.Mode, room: GameRoom?, me: UserID = RoomFixtures.bo) -> SessionLogic {
        SessionLogic(mode: mode, screen: RoomScreenState(server: "ws://localhost:8080/ws", code: "K7Q2MX", room: room, me: me))
    }

    @Test("Scripted: newer rooms are reported once, commands start actions, their outcomes are reported")
    func scripted() throws {
        let lobby = try RoomFixtures.lobby()
        let readied = try RoomFixtures.lobby(readyBo: true)
        var session = logic(.scripted, room: lobby)
        #expect(session.handle(.room(lobby)) == SessionLogic.Step())
        #expect(session.handle(.connection(.connected(userId: RoomFixtures.bo))).outputs == [.status(.connected(userId: RoomFixtures.bo))])
        #expect(session.handle(.connection(.connected(userId: RoomFixtures.bo))).outputs == [])
        #expect(session.handle(.line("ready")).action == .setReady(true))
        #expect(session.handle(.line("")) == SessionLogic.Step())
        #expect(session.handle(.line("dance")).outputs.first.map { if case .error = $0 { true } else { false } } == true)

        // The reply's room comes first; the stream's copy of it is then not repeated.
        let finished = session.handle(.actionFinished(.setReady(true), .success(readied)))
        #expect(finished.outputs == [.room(readied), .done(.setReady(true))])
        #expect(session.handle(.room(readied)).outputs == [])
        #expect(session.handle(.line("room")).outputs == [.room(readied)])

        let refused = ParlorClientError.server(code: .notModerator, status: .permissionDenied, message: "Only the moderator can start the game.")
        #expect(session.handle(.actionFinished(.start, .failure(refused))).outputs
            == [.error(action: "start", code: "NOT_MODERATOR", message: "Only the moderator can start the game.")])

        // End of input does not end a scripted session; quit does.
        #expect(session.handle(.inputEnded).ending == nil)
        #expect(session.handle(.line("quit")) == SessionLogic.Step(ending: .quit))
    }

    @Test("Who is connected reaches the screen and nothing else: no line for a script, no action")
    func presence() throws {
        var session = logic(.scripted, room: try RoomFixtures.lobby())
        let view = PresenceView(players: [PresenceView.Player(userId: RoomFixtures.ann, online: false)])
        #expect(session.handle(.presence(view)) == SessionLogic.Step())
        #expect(session.screen.presence == view)
        #expect(RoomScreen.text(session.screen, width: 72, height: 30).contains("  ○ ★ Ann       ✓ ready"))
    }

    @Test("Leaving and deletion end the session, with a farewell on the terminal")
    func endings() throws {
        var session = logic(.interactive, room: try RoomFixtures.lobby())
        let left = session.handle(.actionFinished(.leave, .success(nil)))
        #expect(left.outputs == [.done(.leave), .left(code: "K7Q2MX")])
        #expect(left.ending == .left)
        #expect(session.farewell(for: .left, server: "ws://x/ws") == "You left room K7Q2MX.")

        var deleted = logic(.scripted, room: try RoomFixtures.lobby())
        #expect(deleted.handle(.room(nil)) == SessionLogic.Step(outputs: [.room(nil)], ending: .roomDeleted))
        #expect(deleted.farewell(for: .roomDeleted, server: "ws://x/ws") == "Room K7Q2MX was deleted.")
        #expect(deleted.farewell(for: .roomDeleted, server: "ws://x/ws", closedReason: "The venue is closing")
            == "Room K7Q2MX was closed by the server's operator: The venue is closing")

        var closed = logic(.interactive, room: try RoomFixtures.lobby())
        #expect(closed.handle(.roomStreamEnded).ending == .connectionClosed)
        #expect(SessionLogic.Ending.connectionClosed.exitStatus == 1)
        #expect(closed.handle(.signal(15)).ending == .quit)
    }

    @Test("Interactive: keys start actions, q quits, results become the message line")
    func interactive() throws {
        var session = logic(.interactive, room: try RoomFixtures.inRoundTwo())
        #expect(session.handle(.key(.character("e"))).action == nil)
        _ = session.handle(.key(.character("7")))
        #expect(session.handle(.key(.enter)).action == .submitScore(player: RoomFixtures.bo, round: 2, score: 7))
        _ = session.handle(.actionFinished(.submitScore(player: RoomFixtures.bo, round: 2, score: 7), .success(nil)))
        #expect(session.screen.message == RoomScreenState.Message("Bo scores 7 in round 2."))
        #expect(session.handle(.key(.character("q"))) == SessionLogic.Step(ending: .quit))
        #expect(session.handle(.inputEnded).ending == .quit)
    }
}
