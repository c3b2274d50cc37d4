import ParlorClient
import ParlorRules
import ParlorTerminal
import ParlorWire
import Testing

/// What keys and script lines do: the interactive view's keys and the scripted commands map onto the
/// same actions.
@Suite("Keys and script commands")
struct InputTests {
    private func state(_ room: GameRoom, me: UserID) -> RoomScreenState {
        RoomScreenState(server: "ws://localhost:8080/ws", code: room.id.rawValue, room: room, me: me)
    }

    @Test("Terminal bytes decode into keys, arrows and all, even split across reads")
    func keyDecoding() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("rs".utf8)) == [.character("r"), .character("s")])
        #expect(decoder.decode([0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42, 0x0D, 0x7F, 0x03]) == [.up, .down, .enter, .backspace, .interrupt])
        #expect(decoder.decode([0x1B]) == [.escape])
        #expect(decoder.decode([0x1B, 0x5B]) == [])
        #expect(decoder.decode([0x43]) == [.right])
        #expect(decoder.decode(Array("é".utf8).prefix(1)) == [])
        #expect(decoder.decode(Array("é".utf8).suffix(1)) == [.character("é")])
        #expect(decoder.decode([0x1B, 0x5B, 0x31, 0x35, 0x7E, 0x71]) == [.character("q")])
        // Home and End, as xterm (ESC [ H, ESC [ F) and as tmux and VT220 (ESC [ 1 ~, ESC [ 4 ~) send them.
        #expect(decoder.decode(Array("\u{1B}[H\u{1B}[F\u{1B}OH".utf8)) == [.home, .end, .home])
        #expect(decoder.decode(Array("\u{1B}[1~\u{1B}[4".utf8)) == [.home])
        #expect(decoder.decode(Array("~x".utf8)) == [.end, .character("x")])
    }

    @Test("Before the start: r toggles one's own ready, s starts, l asks before leaving, q quits")
    func lobbyKeys() throws {
        var bo = state(try RoomFixtures.lobby(), me: RoomFixtures.bo)
        #expect(bo.handle(.character("r")) == .setReady(true))
        var readyBo = state(try RoomFixtures.lobby(readyBo: true), me: RoomFixtures.bo)
        #expect(readyBo.handle(.character("r")) == .setReady(false))
        var ann = state(try RoomFixtures.lobby(readyBo: true), me: RoomFixtures.ann)
        #expect(ann.handle(.character("s")) == .start)
        #expect(bo.handle(.character("l")) == nil)
        #expect(bo.mode == .confirmingLeave)
        #expect(bo.handle(.character("n")) == nil)
        #expect(bo.mode == .normal)
        _ = bo.handle(.character("l"))
        #expect(bo.handle(.character("y")) == .leave)
        #expect(bo.handle(.character("q")) == .quit)
        #expect(bo.handle(.interrupt) == .quit)
    }

    @Test("During the game: e types a score for the selected player; ←/→ pick the round; Esc cancels")
    func scoreEntry() throws {
        let room = try RoomFixtures.inRoundTwo()
        var ann = state(room, me: RoomFixtures.ann)
        #expect(ann.selectedPlayer?.name == "Ann")
        _ = ann.handle(.down)
        #expect(ann.selectedPlayer?.name == "Bo")
        _ = ann.handle(.character("e"))
        #expect(ann.mode == .enteringScore(player: RoomFixtures.bo, round: 2, digits: ""))
        for key: Key in [.character("4"), .character("x"), .character("2"), .backspace, .character("5"), .left] {
            _ = ann.handle(key)
        }
        #expect(ann.mode == .enteringScore(player: RoomFixtures.bo, round: 1, digits: "45"))
        // Someone else's score: the moderator confirms it first.
        #expect(ann.handle(.enter) == nil)
        #expect(ann.mode == .confirmingScore(player: RoomFixtures.bo, round: 1, score: 45))
        #expect(ann.handle(.character("y")) == .submitScore(player: RoomFixtures.bo, round: 1, score: 45))
        #expect(ann.mode == .normal)
        _ = ann.handle(.character("e"))
        _ = ann.handle(.character("9"))
        #expect(ann.handle(.escape) == nil)
        #expect(ann.mode == .normal)
        #expect(ann.handle(.character("n")) == .nextRound)
        // No wrap-around: from Bo, two ↑ stop at the top row.
        _ = ann.handle(.up)
        _ = ann.handle(.up)
        #expect(ann.selectedPlayer?.name == "Ann")
    }

    @Test("A spectator's action keys explain instead of acting")
    func spectator() throws {
        var watcher = state(try RoomFixtures.lobby(), me: UserID("00000000-0000-4000-8000-0000000000ee")!)
        #expect(watcher.handle(.character("r")) == nil)
        #expect(watcher.message == RoomScreenState.Message("You are watching this room; join it to play (parlor join K7Q2MX).", isError: true))
        #expect(watcher.handle(.character("q")) == .quit)
    }

    @Test("Script lines map onto the same actions, with defaults from the room")
    func scriptCommands() throws {
        let room = try RoomFixtures.inRoundTwo()
        let bo = state(room, me: RoomFixtures.bo)
        func parse(_ line: String) -> Result<ScriptCommand, ScriptCommandError>? { ScriptCommand.parse(line, in: bo) }
        #expect(parse("   ") == nil)
        #expect(parse("ready") == .success(.action(.setReady(true))))
        #expect(parse("unready") == .success(.action(.setReady(false))))
        #expect(parse("start") == .success(.action(.start)))
        #expect(parse("next") == .success(.action(.nextRound)))
        #expect(parse("leave") == .success(.action(.leave)))
        #expect(parse("quit") == .success(.action(.quit)))
        #expect(parse("room") == .success(.showRoom))
        #expect(parse("score 25") == .success(.action(.submitScore(player: RoomFixtures.bo, round: 2, score: 25))))
        #expect(parse("score 7 --round 1 --player cy") == .success(.action(.submitScore(player: RoomFixtures.cy, round: 1, score: 7))))
        #expect(parse("score") == .failure(ScriptCommandError("score needs the points, e.g. \"score 25\".")))
        #expect(parse("score 5 --player Dee") == .failure(ScriptCommandError("There is no player \"Dee\" in room K7Q2MX.")))
        #expect(parse("start now") == .failure(ScriptCommandError("start takes no arguments (got \"now\").")))
        #expect(parse("dance") == .failure(ScriptCommandError(
            "Unknown command \"dance\"; use ready, unready, start, score POINTS [--round N] [--player NAME], next, kick NAME, rematch, leave, room or quit.")))
    }

    @Test("Scripted output is one JSON object per line, keys sorted, rooms as the wire has them")
    func jsonLines() throws {
        let room = try RoomFixtures.lobby()
        let line = SessionOutput.room(room).jsonLine
        #expect(line.hasPrefix(#"{"event":"room","room":{"createdAt":"2027-01-15T08:00:00.000Z","createdBy":"00000000-0000-4000-8000-00000000000a","#))
        #expect(!line.contains("\n"))
        #expect(SessionOutput.room(nil).jsonLine == #"{"event":"room","room":null}"#)
        #expect(SessionOutput.status(.reconnecting(attempt: 2, reason: "the connection dropped")).jsonLine
            == #"{"attempt":2,"event":"status","reason":"the connection dropped","state":"reconnecting"}"#)
        #expect(SessionOutput.status(.connected(userId: RoomFixtures.bo)).jsonLine
            == #"{"event":"status","state":"connected","userId":"00000000-0000-4000-8000-00000000000b"}"#)
        #expect(SessionOutput.done(.setReady(true)).jsonLine == #"{"action":"ready","event":"done"}"#)
        #expect(SessionOutput.error(action: "start", code: "NOT_MODERATOR", message: "Only the moderator can start the game.").jsonLine
            == #"{"action":"start","code":"NOT_MODERATOR","event":"error","message":"Only the moderator can start the game."}"#)
        #expect(SessionOutput.left(code: "K7Q2MX").jsonLine == #"{"code":"K7Q2MX","event":"left"}"#)
    }
}
