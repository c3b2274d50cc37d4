import Foundation

/// A place on the Earth in degrees: latitude −90…90 (north positive), longitude −180…180 (east
/// positive). Both ends of the longitude range name the antimeridian. A value every game and
/// `ParlorPlaces` share (the quiz's guesses and answers, the places' positions).
public struct GeoCoordinate: Sendable, Equatable, Codable {
    /// The Earth's mean radius (IUGG R₁), for distances on a sphere.
    public static let earthRadiusKm = 6_371.0088

    public let latitude: Double
    public let longitude: Double

    /// Nil unless both are finite and in range.
    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            return nil
        }
        self.latitude = latitude
        self.longitude = longitude
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let latitude = try container.decode(Double.self, forKey: .latitude)
        let longitude = try container.decode(Double.self, forKey: .longitude)
        guard let coordinate = GeoCoordinate(latitude: latitude, longitude: longitude) else {
            throw DecodingError.dataCorruptedError(
                forKey: .latitude, in: container, debugDescription: "(\(latitude), \(longitude)) is not a position on the Earth.")
        }
        self = coordinate
    }

    private enum CodingKeys: String, CodingKey { case latitude, longitude }
}

extension GeoCoordinate {
    /// The great-circle distance to `other` by the haversine formula on a sphere of the Earth's mean
    /// radius, in kilometres.
    public func distanceKm(to other: GeoCoordinate) -> Double {
        let radians = Double.pi / 180
        let phi1 = latitude * radians
        let phi2 = other.latitude * radians
        let deltaPhi = (other.latitude - latitude) * radians
        let deltaLambda = (other.longitude - longitude) * radians
        let sinPhi = sin(deltaPhi / 2)
        let sinLambda = sin(deltaLambda / 2)
        let h = sinPhi * sinPhi + cos(phi1) * cos(phi2) * sinLambda * sinLambda
        return 2 * Self.earthRadiusKm * asin(min(1, max(0, h)).squareRoot())
    }
}
