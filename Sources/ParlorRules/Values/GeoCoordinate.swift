/// A place on the Earth in degrees: latitude −90…90 (north positive), longitude −180…180 (east
/// positive). Both ends of the longitude range name the antimeridian.
public struct GeoCoordinate: Sendable, Equatable, Codable {
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

    /// A guess a client sent, refused by the field that is wrong.
    public static func reading(latitude: Double, longitude: Double) throws(PhotoQuizError) -> GeoCoordinate {
        guard latitude.isFinite, (-90...90).contains(latitude) else {
            throw .invalidInput(field: "latitude", reason: "latitude must be between -90 and 90 degrees (got \(latitude)).")
        }
        guard longitude.isFinite, (-180...180).contains(longitude) else {
            throw .invalidInput(field: "longitude", reason: "longitude must be between -180 and 180 degrees (got \(longitude)).")
        }
        guard let coordinate = GeoCoordinate(latitude: latitude, longitude: longitude) else {
            throw .invalidInput(field: "latitude", reason: "The position is not on the Earth.")
        }
        return coordinate
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
