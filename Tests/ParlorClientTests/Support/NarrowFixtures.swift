import ParlorRules
import ParlorWire

/// A rummy room whose names are long enough that 60 columns cannot hold them with six rounds and the
/// Total, in round 6 with scores of up to three digits.
enum NarrowFixtures {
    static func longNames() throws -> GameRoom {
        let (ann, bo, cy) = (RoomFixtures.ann, RoomFixtures.bo, RoomFixtures.cy)
        let now = RoomFixtures.now
        var room = try RummyRoom.create(
            code: RoomCode(uncheckedRawValue: "K7Q2MX"), pointLimit: 350, pointValue: 25, playerCount: 4,
            creator: ann, playerName: "Annabelle Fontaine", at: now)
        _ = try room.apply(.join(playerName: "Bo Kristiansen"), by: bo, at: now)
        _ = try room.apply(.join(playerName: "Cyrano de Bergerac"), by: cy, at: now)
        _ = try room.apply(.setReady(playerId: bo, ready: true), by: bo, at: now)
        _ = try room.apply(.setReady(playerId: cy, ready: true), by: cy, at: now)
        _ = try room.apply(.startGame, by: ann, at: now)
        let scores: [[Int]] = [[10, 0, 35, 5, 60], [25, 40, 0, 15, 20], [105, 12, 7, 0, 30]]
        for round in 1...5 {
            for (index, player) in [ann, bo, cy].enumerated() {
                _ = try room.apply(.submitScore(playerId: player, round: round, score: scores[index][round - 1]), by: player, at: now)
            }
            _ = try room.apply(.nextRound, by: ann, at: now)
        }
        _ = try room.apply(.submitScore(playerId: bo, round: 6, score: 9), by: bo, at: now)
        return GameRoom(room)
    }
}
