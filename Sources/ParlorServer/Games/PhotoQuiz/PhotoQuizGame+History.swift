import ParlorRules
import ParlorWire

extension PhotoQuizGame {
    /// A finished quiz in `listHistory`: the standings, most points first.
    func playedGame(_ quiz: PhotoQuiz, for user: UserID) -> PlayedGame? {
        guard quiz.stage == .finished, let finishedAt = quiz.finishedAt else { return nil }
        let players = quiz.standings.map { PlayedGame.Player(userId: $0.playerId, name: $0.name, points: $0.score, rank: $0.rank) }
        return PlayedGame(kind: Self.kind.name, code: quiz.code.rawValue, finishedAt: finishedAt, players: players, for: user)
    }
}
