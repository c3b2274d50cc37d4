import Testing
@testable import ParlorRules

/// A rematch of a finished room: the same settings and seats, the moderator ready, nobody else; the old
/// room records the rematch once.
@Suite struct RummyRematchTests {
    static func finished() throws -> RummyRoom {
        var room = try RummyRoom.create(
            code: RummyLobbyPhaseTests.code, pointLimit: 100, pointValue: 5, playerCount: 3, creator: user(1), playerName: "Ann", at: t0)
        _ = try room.apply(.join(playerName: "Bo"), by: user(2), at: t0)
        _ = try room.apply(.setReady(playerId: user(2), ready: true), by: user(2), at: t0)
        _ = try room.apply(.startGame, by: user(1), at: t0)
        _ = try room.apply(.submitScore(playerId: user(2), round: 1, score: 120), by: user(2), at: t0)
        _ = try room.apply(.nextRound, by: user(1), at: t0)
        return room
    }

    @Test func aRematchHasTheSameSeatsAndSettings() throws {
        let old = try Self.finished()
        let next = try old.rematch(by: user(1), id: "Q1W2E3", code: "Q1W2E3", at: t0.adding(seconds: 60))
        #expect(next.id.rawValue == "Q1W2E3" && next.pointLimit == 100 && next.pointValue == 5 && next.playerCount == 3)
        #expect(next.players.map(\.id) == [user(1), user(2)] && next.players.map(\.name) == ["Ann", "Bo"])
        #expect(next.players.map(\.isModerator) == [true, false] && next.players.map(\.isReady) == [true, false])
        #expect(!next.isStarted && !next.isFinished && next.rematch == nil)
    }

    @Test func onlyTheModeratorAfterTheEndAndOnce() throws {
        var old = try Self.finished()
        #expect(roomError { _ = try old.rematch(by: user(2), id: "X", code: "Q1W2E3", at: t0) }?.kind == .notModerator)
        var running = try RummyRoom.create(
            code: RummyLobbyPhaseTests.code, pointLimit: 100, pointValue: 5, playerCount: 3, creator: user(1), playerName: "Ann", at: t0)
        #expect(roomError { _ = try running.rematch(by: user(1), id: "X", code: "Q1W2E3", at: t0) }?.kind == .invalidState)
        #expect(roomError { _ = try running.apply(.recordRematch(code: RoomCode(uncheckedRawValue: "Q1W2E3")), by: user(1), at: t0) }?.kind
                == .invalidState)
        let version = old.version
        #expect(try old.apply(.recordRematch(code: RoomCode(uncheckedRawValue: "Q1W2E3")), by: user(1), at: t0)
                == [.rematchStarted(RoomCode(uncheckedRawValue: "Q1W2E3"))])
        #expect(old.rematchCode == "Q1W2E3" && old.version == version + 1)
        #expect(roomError { _ = try old.apply(.recordRematch(code: RoomCode(uncheckedRawValue: "Z9Z9Z9")), by: user(1), at: t0) }?.kind
                == .invalidState)
        #expect(roomError { _ = try old.apply(.recordRematch(code: RoomCode(uncheckedRawValue: "Z9Z9Z9")), by: user(2), at: t0) }?.kind
                == .notModerator)
    }
}
