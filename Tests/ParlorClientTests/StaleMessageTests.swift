import ParlorClient
import ParlorRules
@testable import ParlorTerminal
import ParlorWire
import Testing

/// The message line never outlives what it talks about: the state it spoke of changing replaces it,
/// time expires it, a reconnect clears the outage's errors, and what others do to you is announced.
@Suite("Stale messages")
struct StaleMessageTests {
    private let now = RoomFixtures.now

    private func session(_ room: GameRoom, me: UserID = RoomFixtures.bo) -> SessionLogic {
        var state = RoomScreenState(server: "ws://x/ws", code: "K7Q2MX", room: room, me: me)
        state.connection = .connected(userId: me)
        return SessionLogic(mode: .interactive, screen: state)
    }

    /// In round 2 as `inRoundTwo`, then `more` applied.
    private func roundTwo(_ more: (inout RummyRoom) throws -> Void = { _ in }) throws -> GameRoom {
        let (ann, bo, cy) = (RoomFixtures.ann, RoomFixtures.bo, RoomFixtures.cy)
        var room = try RummyRoom.create(
            code: RoomCode(uncheckedRawValue: "K7Q2MX"), pointLimit: 201, pointValue: 25, playerCount: 4, creator: ann, playerName: "Ann", at: now)
        _ = try room.apply(.join(playerName: "Bo"), by: bo, at: now)
        _ = try room.apply(.join(playerName: "Cy"), by: cy, at: now)
        _ = try room.apply(.setReady(playerId: bo, ready: true), by: bo, at: now)
        _ = try room.apply(.setReady(playerId: cy, ready: true), by: cy, at: now)
        _ = try room.apply(.startGame, by: ann, at: now)
        _ = try room.apply(.submitScore(playerId: ann, round: 1, score: 10), by: ann, at: now)
        _ = try room.apply(.submitScore(playerId: bo, round: 1, score: 25), by: bo, at: now)
        _ = try room.apply(.submitScore(playerId: cy, round: 1, score: 40), by: cy, at: now)
        _ = try room.apply(.nextRound, by: ann, at: now)
        try more(&room)
        return GameRoom(room)
    }

    @Test("The moderator entering your score is announced; your own entry is not news")
    func scoreForYou() throws {
        var bo = session(try roundTwo())
        _ = bo.handle(.room(try roundTwo { _ = try $0.apply(.submitScore(playerId: RoomFixtures.bo, round: 2, score: 80), by: RoomFixtures.ann, at: now) }))
        #expect(bo.screen.message?.text == "Ann entered 80 for you in round 2.")
        #expect(RoomScreen.text(bo.screen, width: 60, height: 24).dropLast().last == "  Ann entered 80 for you in round 2.")

        var own = session(try roundTwo())
        for key: Key in [.character("e"), .character("8"), .character("0")] { _ = own.handle(.key(key)) }
        #expect(own.handle(.key(.enter)).action == .submitScore(player: RoomFixtures.bo, round: 2, score: 80))
        // The stream's copy arrives before the answer: no announcement of what you just did.
        _ = own.handle(.room(try roundTwo { _ = try $0.apply(.submitScore(playerId: RoomFixtures.bo, round: 2, score: 80), by: RoomFixtures.bo, at: now) }))
        #expect(own.screen.message == nil)
    }

    @Test("\"You are ready.\" is replaced when the game starts; \"waiting for Bo\" goes when Bo is ready")
    func replacedByState() throws {
        let readied = try RoomFixtures.lobby(readyBo: true)
        var bo = session(try RoomFixtures.lobby())
        #expect(bo.handle(.key(.character("r"))).action == .setReady(true))
        _ = bo.handle(.actionFinished(.setReady(true), .success(readied)))
        #expect(bo.screen.message?.text == "You are ready.")
        var room = try RummyRoom.create(
            code: RoomCode(uncheckedRawValue: "K7Q2MX"), pointLimit: 201, pointValue: 25, playerCount: 4, creator: RoomFixtures.ann,
            playerName: "Ann", at: now)
        _ = try room.apply(.join(playerName: "Bo"), by: RoomFixtures.bo, at: now)
        _ = try room.apply(.join(playerName: "Cy"), by: RoomFixtures.cy, at: now)
        _ = try room.apply(.setReady(playerId: RoomFixtures.bo, ready: true), by: RoomFixtures.bo, at: now)
        _ = try room.apply(.setReady(playerId: RoomFixtures.cy, ready: true), by: RoomFixtures.cy, at: now)
        _ = try room.apply(.startGame, by: RoomFixtures.ann, at: now)
        _ = bo.handle(.room(GameRoom(room)))
        #expect(bo.screen.message?.text == "Ann started the game: press e to enter your score.")

        var ann = session(try RoomFixtures.lobby(), me: RoomFixtures.ann)
        let refused = ParlorClientError.server(code: .invalidState, status: .failedPrecondition, message: "Not everyone is ready: waiting for Bo, Cy.")
        _ = ann.handle(.actionFinished(.start, .failure(refused)))
        #expect(ann.screen.message?.isError == true)
        _ = ann.handle(.room(readied))
        #expect(ann.screen.message == nil)
    }

    @Test("Messages expire: ten seconds for a sentence, thirty for the keys")
    func expiry() throws {
        var bo = session(try RoomFixtures.finished())
        _ = bo.handle(.tick(now))
        _ = bo.handle(.key(.character("l")))
        #expect(bo.screen.message != nil)
        _ = bo.handle(.tick(now.adding(seconds: 9)))
        #expect(bo.screen.message != nil)
        _ = bo.handle(.tick(now.adding(seconds: 10)))
        #expect(bo.screen.message == nil)

        _ = bo.handle(.key(.character("?")))
        _ = bo.handle(.tick(now.adding(seconds: 35)))
        #expect(bo.screen.message?.text == RoomScreenState.helpText)
        _ = bo.handle(.tick(now.adding(seconds: 40)))
        #expect(bo.screen.message == nil)
    }

    @Test("What found no connection is kept and sent on reconnecting; the outage's errors go then")
    func queuedAcrossReconnect() throws {
        var bo = session(try RoomFixtures.lobby())
        _ = bo.handle(.connection(.reconnecting(attempt: 1, reason: "the connection dropped")))
        #expect(bo.handle(.key(.character("r"))).action == .setReady(true))
        let kept = bo.handle(.actionFinished(.setReady(true), .failure(.notConnected(reason: "nothing is listening at 127.0.0.1:1"))))
        #expect(kept.outputs.isEmpty && kept.action == nil)
        #expect(bo.queued == [.setReady(true)])
        #expect(RoomScreen.text(bo.screen, width: 100, height: 24).dropLast().last
            == "  Not connected: what you asked is kept and sent when the connection is back.")
        // Kept however long the outage lasts.
        _ = bo.handle(.tick(now.adding(seconds: 600)))
        #expect(bo.screen.message?.text == SessionLogic.queuedSentence)

        let back = bo.handle(.connection(.connected(userId: RoomFixtures.bo)))
        #expect(back.action == .setReady(true))
        #expect(bo.queued.isEmpty)
        #expect(bo.screen.message == nil)

        // An error from the outage (the answer lost with the connection) is cleared by the reconnect.
        _ = bo.handle(.actionFinished(.start, .failure(.connectionLost(operation: "startGame"))))
        #expect(bo.screen.message?.isError == true)
        _ = bo.handle(.connection(.reconnecting(attempt: 1, reason: "the connection dropped")))
        _ = bo.handle(.connection(.connected(userId: RoomFixtures.bo)))
        #expect(bo.screen.message == nil)

        // Once the client is closed for good, nothing is kept: the failure is said.
        _ = bo.handle(.connection(.closed(reason: "out of attempts")))
        let lost = bo.handle(.actionFinished(.setReady(false), .failure(.notConnected(reason: "the client was closed"))))
        #expect(bo.queued.isEmpty)
        #expect(lost.outputs.count == 1)
    }
}
