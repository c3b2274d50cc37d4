import ParlorRules
import ParlorWire

extension RummyGame {
    /// A finished room in `listHistory`: the standings, fewest points first.
    func playedGame(_ room: RummyRoom, for user: UserID) -> PlayedGame? {
        guard let results = room.results, let finishedAt = room.finishedAt else { return nil }
        let players = results.standings.map {
            PlayedGame.Player(userId: $0.playerId, name: $0.name, points: $0.totalScore, rank: $0.rank)
        }
        return PlayedGame(kind: Self.kind.name, code: room.id.rawValue, finishedAt: finishedAt, players: players, for: user)
    }
}
