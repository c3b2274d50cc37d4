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

    /// Matches scored on a phone offline and uploaded are listed beside the server's.
    var listsUploads: Bool { true }

    /// An uploaded match in `listHistory`: it has no code, so its id stands in; guests have no user id.
    /// Legs won are known once its turns are uploaded (else 0): the winner first, then by legs.
    func playedGame(uploaded game: UploadedGame, for user: UserID) throws(StoreError) -> PlayedGame? {
        let record = try StoredUpload.read(game).record
        let legs = record.players.map { $0.legsWon ?? 0 }
        let ranks = PlayedGame.ranks(zip(record.players, legs).map { $0.isWinner ? Int.max : $1 }, higherIsBetter: true)
        let players = record.players.enumerated().map { index, player in
            PlayedGame.Player(userId: player.playerId, name: player.name, points: legs[index], rank: ranks[index])
        }
        return PlayedGame(kind: Self.kind.name, code: record.metadata.code ?? record.id, finishedAt: game.finishedAt, players: players, for: user)
    }
}
