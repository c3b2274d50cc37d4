import Foundation
import ParlorRules
import Testing
@testable import ParlorServer

@Suite struct StoredRoomJSONTests {
    /// Whatever state a room is in, the hand-written form decodes back to the same room with the
    /// ordinary decoder the store uses at start-up.
    @Test func roundTripsThroughTheOrdinaryDecoder() throws {
        let users = (0..<4).map { UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000000\($0)")!) }
        let t0 = Instant(millisecondsSinceEpoch: 1_800_000_000_321)
        var room = try RummyRoom.create(
            code: RoomCode(uncheckedRawValue: "R2D2C3"), pointLimit: 100, pointValue: 10, playerCount: 4,
            creator: users[0], playerName: #"A "quoted" \ name 🎲"#, at: t0)
        var states = [room]
        for user in users.dropFirst() {
            _ = try room.apply(.join(playerName: "P κ"), by: user, at: t0)
            _ = try room.apply(.setReady(playerId: user, ready: true), by: user, at: t0)
        }
        _ = try room.apply(.startGame, by: users[0], at: t0)
        states.append(room)
        for (index, user) in users.enumerated() {
            _ = try room.apply(.submitScore(playerId: user, round: 1, score: [3, 150, 40, 3][index]), by: user, at: t0)
        }
        states.append(room)
        _ = try room.apply(.nextRound, by: users[0], at: Instant(millisecondsSinceEpoch: 1_800_000_500_000))
        states.append(room)
        _ = try room.apply(.leave(playerId: users[1]), by: users[1], at: t0)
        states.append(room)
        for state in states {
            let decoded = try JSONDecoder().decode(RummyRoom.self, from: Data(StoredRoomJSON.encode(state).utf8))
            #expect(decoded == state)
        }
    }
}
