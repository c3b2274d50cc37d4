/// The outcome of a finished rummy game.
///
/// Lowest total wins. Ties are broken by seat order, so ranks are always 1, 2, 3, … with no shared
/// places; the winner is rank 1. Settlement lists only non-zero debts: every other player pays the
/// winner (their total − the winner's total) × `pointValue` cents; a player tied with the winner owes
/// nothing and does not appear.
public struct RummyResults: Sendable, Equatable, Codable {
    public struct Standing: Sendable, Equatable, Codable {
        public let playerId: UserID
        public let name: String
        public let totalScore: Int
        public let rank: Int
    }

    public struct Debt: Sendable, Equatable, Codable {
        public let from: UserID
        public let to: UserID
        /// Cents.
        public let amount: Int
    }

    public let standings: [Standing]
    public let winnerId: UserID
    public let settlement: [Debt]

    /// Nil when there are no players.
    public init?(players: [RummyPlayer], pointValue: Int) {
        let ordered = players.enumerated().sorted { lhs, rhs in
            lhs.element.totalScore != rhs.element.totalScore
                ? lhs.element.totalScore < rhs.element.totalScore
                : lhs.offset < rhs.offset
        }.map(\.element)
        guard let winner = ordered.first else { return nil }
        standings = ordered.enumerated().map { index, player in
            Standing(playerId: player.id, name: player.name, totalScore: player.totalScore, rank: index + 1)
        }
        winnerId = winner.id
        settlement = ordered.dropFirst().compactMap { player in
            let points = player.totalScore - winner.totalScore
            return points > 0 ? Debt(from: player.id, to: winner.id, amount: points * pointValue) : nil
        }
    }
}
