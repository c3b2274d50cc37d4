import Foundation

/// How far a guess is from the answer and what it scores.
///
/// Distance is the great-circle distance by the haversine formula on a sphere of the Earth's mean
/// radius (IUGG R₁ = 6,371.0088 km). Points fall off exponentially with distance:
/// `round(5000 × e^(−d / 1492.7 km))` — 5000 within 25 m, 2500 at about 1,035 km, 0 beyond about
/// 13,750 km — and a player who did not guess scores 0.
public enum QuizScoring {
    public static let earthRadiusKm = 6_371.0088
    public static let maxPoints = 5000
    /// The distance at which points have fallen to 1/e of the maximum.
    public static let decayKm = 1_492.7
    /// A guess this close counts as exact.
    public static let exactKm = 0.025

    /// The haversine distance between two positions, in kilometres.
    public static func distanceKm(_ a: GeoCoordinate, _ b: GeoCoordinate) -> Double {
        let radians = Double.pi / 180
        let phi1 = a.latitude * radians
        let phi2 = b.latitude * radians
        let deltaPhi = (b.latitude - a.latitude) * radians
        let deltaLambda = (b.longitude - a.longitude) * radians
        let sinPhi = sin(deltaPhi / 2)
        let sinLambda = sin(deltaLambda / 2)
        let h = sinPhi * sinPhi + cos(phi1) * cos(phi2) * sinLambda * sinLambda
        return 2 * earthRadiusKm * asin(min(1, max(0, h)).squareRoot())
    }

    /// The points a guess `distanceKm` away scores.
    public static func points(distanceKm: Double) -> Int {
        if distanceKm <= exactKm { return maxPoints }
        let points = Double(maxPoints) * exp(-distanceKm / decayKm)
        return Int(points.rounded(.toNearestOrAwayFromZero))
    }
}
