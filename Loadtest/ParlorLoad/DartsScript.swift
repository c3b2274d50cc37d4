/// The visits of a `parlor-load darts` match, fixed in advance so every player knows without reading
/// the views which visits are its own and what they are, and so the match never finishes during a run.
///
/// 501, double out, first to 15 legs of 13 sets. In every leg the starting player scores 100, 100, 100,
/// 100 and then finishes 101 with T20 S1 D20; everyone else scores 60 a visit and never finishes. A leg
/// is therefore `4 × players + 1` visits, its starter is the next seat each leg (as the rules rotate it),
/// and the j-th visit of a leg is thrown by seat `(starter + j) % players`. Visit k of the match is due
/// `k × interval / players` after the match's start: every player throws once per interval.
struct DartsScript: Sendable {
    let players: Int

    /// The match's settings: nobody can win before `maxVisits` visits.
    static let legs = 15
    static let sets = 13

    /// Visits in one leg.
    var legLength: Int { 4 * players + 1 }

    /// The fewest visits in which a match could finish: 15 × 13 legs (one player winning them all).
    var visitsBeforeAnyWin: Int { Self.legs * Self.sets * legLength }

    /// The seat that throws visit `k` (from 0) of the match.
    func seat(ofVisit k: Int) -> Int {
        let leg = k / legLength
        let j = k % legLength
        return (leg % players + j) % players
    }

    /// What visit `k` is.
    func visit(_ k: Int) -> Visit {
        let leg = k / legLength
        let j = k % legLength
        let starter = leg % players
        guard seat(ofVisit: k) == starter else { return .total(60) }
        return j == 4 * players ? .finish : .total(100)
    }

    enum Visit: Equatable {
        case total(Int)
        /// T20 S1 D20: 101, the leg.
        case finish
    }
}
