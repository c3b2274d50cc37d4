/// What one player's entry of a finished match adds to their lifetime (a profile's played, won,
/// 3-dart average and highest checkout), filed with the entry by the kernel's archive.
extension DartsMatch {
    /// The names of a darts tally's counts.
    public enum TallyKey {
        /// 1 for the winner, else 0.
        public static let won = "won"
        /// Points scored (busts score none) and darts thrown: the lifetime 3-dart average is their ratio.
        public static let points = "points"
        public static let darts = "darts"
        public static let highestCheckout = "highest_checkout"
    }

    /// `seat`'s tally of this match: the winner's `won` is 1, the points and darts are the match's
    /// statistics.
    public func tally(seat: Int) -> PlayerTally {
        let statistics = DartsStatistics.match(self, seat: seat)
        return [
            TallyKey.won: winner == seat ? 1 : 0, TallyKey.points: statistics.points, TallyKey.darts: statistics.dartsThrown,
            TallyKey.highestCheckout: statistics.highestCheckout,
        ]
    }

    /// Every account player's tally, by id (guests have no lifetime).
    public var accountTallies: [UserID: PlayerTally] {
        var tallies: [UserID: PlayerTally] = [:]
        for (seat, player) in players.enumerated() where !player.isGuest { tallies[player.id] = tally(seat: seat) }
        return tallies
    }
}
