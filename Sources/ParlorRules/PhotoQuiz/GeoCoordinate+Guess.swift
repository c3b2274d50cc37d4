extension GeoCoordinate {
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
}
