import Foundation

/// How far a guess is from the answer and what it scores.
///
/// Distance is the great-circle distance (`GeoCoordinate.distanceKm(to:)`). Points fall off
/// exponentially with distance: `round(5000 × e^(−d / 1492.7 km))` — 5000 within 25 m, 2500 at about
/// 1,035 km, 0 beyond about 13,750 km — and a player who did not guess scores 0.
public enum QuizScoring {
    public static let maxPoints = 5000
    /// The distance at which points have fallen to 1/e of the maximum.
    public static let decayKm = 1_492.7
    /// A guess this close counts as exact.
    public static let exactKm = 0.025

    /// The points a guess `distanceKm` away scores.
    public static func points(distanceKm: Double) -> Int {
        if distanceKm <= exactKm { return maxPoints }
        let points = Double(maxPoints) * exp(-distanceKm / decayKm)
        return Int(points.rounded(.toNearestOrAwayFromZero))
    }
}
