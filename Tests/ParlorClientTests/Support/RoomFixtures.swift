import ParlorRules
import ParlorWire

/// Rooms in given states, built with the real rules so they are states a server could send.
enum RoomFixtures {
    static let ann = UserID("00000000-0000-4000-8000-00000000000a")!
    static let bo = UserID("00000000-0000-4000-8000-00000000000b")!
    static let cy = UserID("00000000-0000-4000-8000-00000000000c")!
    static let now = Instant(millisecondsSinceEpoch: 1_800_000_000_000)

    static func lobby(readyBo: Bool = false) throws -> GameRoom {
        var room = try RummyRoom.create(
            code: RoomCode(uncheckedRawValue: "K7Q2MX"), pointLimit: 201, pointValue: 25, playerCount: 4,
            creator: ann, playerName: "Ann", at: now)
        _ = try room.apply(.join(playerName: "Bo"), by: bo, at: now)
        _ = try room.apply(.join(playerName: "Cy"), by: cy, at: now)
        if readyBo { _ = try room.apply(.setReady(playerId: bo, ready: true), by: bo, at: now) }
        return GameRoom(room)
    }

    /// Started, round 1 scored, in round 2 with Bo's score for it in.
    static func inRoundTwo() throws -> GameRoom { GameRoom(try roundTwo()) }

    private static func roundTwo() throws -> RummyRoom {
        var room = try startedRoom()
        _ = try room.apply(.submitScore(playerId: ann, round: 1, score: 10), by: ann, at: now)
        _ = try room.apply(.submitScore(playerId: bo, round: 1, score: 25), by: bo, at: now)
        _ = try room.apply(.submitScore(playerId: cy, round: 1, score: 40), by: cy, at: now)
        _ = try room.apply(.nextRound, by: ann, at: now)
        _ = try room.apply(.submitScore(playerId: bo, round: 2, score: 5), by: bo, at: now)
        return room
    }

    /// Finished at the point limit in round 2.
    static func finished() throws -> GameRoom { GameRoom(try finishedRoom()) }

    /// Finished, and Ann (the moderator) started a rematch in room `code`.
    static func rematched(to code: String) throws -> GameRoom {
        var room = try finishedRoom()
        _ = try room.apply(.recordRematch(code: RoomCode(uncheckedRawValue: code)), by: ann, at: now)
        return GameRoom(room)
    }

    private static func finishedRoom() throws -> RummyRoom {
        var room = try startedRoom()
        _ = try room.apply(.submitScore(playerId: ann, round: 1, score: 10), by: ann, at: now)
        _ = try room.apply(.submitScore(playerId: bo, round: 1, score: 120), by: bo, at: now)
        _ = try room.apply(.submitScore(playerId: cy, round: 1, score: 40), by: cy, at: now)
        _ = try room.apply(.nextRound, by: ann, at: now)
        _ = try room.apply(.submitScore(playerId: bo, round: 2, score: 90), by: bo, at: now)
        _ = try room.apply(.submitScore(playerId: cy, round: 2, score: 10), by: cy, at: now)
        _ = try room.apply(.nextRound, by: ann, at: now)
        return room
    }

    /// Round two, after Ann (the moderator) removed Bo.
    static func withoutBo() throws -> GameRoom {
        var room = try roundTwo()
        _ = try room.apply(.leave(playerId: bo), by: ann, at: now)
        return GameRoom(room)
    }

    private static func startedRoom() throws -> RummyRoom {
        var room = try RummyRoom.create(
            code: RoomCode(uncheckedRawValue: "K7Q2MX"), pointLimit: 201, pointValue: 25, playerCount: 4,
            creator: ann, playerName: "Ann", at: now)
        _ = try room.apply(.join(playerName: "Bo"), by: bo, at: now)
        _ = try room.apply(.join(playerName: "Cy"), by: cy, at: now)
        _ = try room.apply(.setReady(playerId: bo, ready: true), by: bo, at: now)
        _ = try room.apply(.setReady(playerId: cy, ready: true), by: cy, at: now)
        _ = try room.apply(.startGame, by: ann, at: now)
        return room
    }
}
