import ParlorRules
import ParlorWire

extension WordLobbyGame {
    /// A finished match in `listHistory`: the players by score, most first.
    func playedGame(_ lobby: WordLobby, for user: UserID) -> PlayedGame? {
        guard lobby.status == .finished, let finishedAt = lobby.finishedAt else { return nil }
        let ranks = PlayedGame.ranks(lobby.players.map(\.score), higherIsBetter: true)
        let players = zip(lobby.players, ranks).map { player, rank in
            PlayedGame.Player(userId: player.userId, name: player.username, points: player.score, rank: rank)
        }
        return PlayedGame(kind: Self.kind.name, code: lobby.lobbyCode.rawValue, finishedAt: finishedAt, players: players, for: user)
    }
}
