import ParlorRules
import ParlorWire

extension DartsGame {
    /// A finished match in `listHistory`: its winner first, then the others by legs won.
    func playedGame(_ match: DartsMatch, for user: UserID) -> PlayedGame? {
        guard let finishedAt = match.finishedAt else { return nil }
        let legs = match.players.indices.map { match.totalLegsWon(by: $0) }
        let others = PlayedGame.ranks(legs.enumerated().map { $0.offset == match.winner ? Int.max : $0.element }, higherIsBetter: true)
        let players = match.players.enumerated().map { seat, player in
            PlayedGame.Player(userId: player.id, name: player.name, points: legs[seat], rank: others[seat])
        }
        return PlayedGame(kind: Self.kind.name, code: match.code.rawValue, finishedAt: finishedAt, players: players, for: user)
    }
}
