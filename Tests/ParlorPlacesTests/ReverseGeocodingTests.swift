import ParlorPlaces
import ParlorRules
import Testing

/// The nearest populated place to known positions, in GeoNames' cities1000 as setup.sh installs it:
/// city centres, a point in the ocean, both sides of the antimeridian, the poles — and the k-d tree
/// against a scan of every place.
@Suite struct ReverseGeocodingTests {
    static func name(_ places: Places, _ latitude: Double, _ longitude: Double) -> PlaceName? {
        places.name(at: GeoCoordinate(latitude: latitude, longitude: longitude)!)
    }

    @Test func cityCentresNameTheirCityAndCountry() throws {
        let places = try PlacesData.places()
        // Two lines of the file have no name and are left out.
        #expect(places.count > 140_000 && places.skippedLines == 2)
        #expect(Self.name(places, 48.8566, 2.3522) == PlaceName(city: "Paris", country: "France"))
        #expect(Self.name(places, -33.8688, 151.2093) == PlaceName(city: "Sydney", country: "Australia"))
        #expect(Self.name(places, 51.5074, -0.1278) == PlaceName(city: "London", country: "United Kingdom"))
        #expect(Self.name(places, 35.0116, 135.7681) == PlaceName(city: "Kyoto", country: "Japan"))
        let (nearest, distance) = try #require(places.index.nearest(latitude: 48.8566, longitude: 2.3522))
        #expect(nearest.countryCode == "FR" && abs(distance - 0.43) < 0.01)
    }

    @Test func theMiddleOfTheOceanIsNowhere() throws {
        let places = try PlacesData.places()
        #expect(Self.name(places, 30, -40) == nil)
        let (nearest, distance) = try #require(places.index.nearest(latitude: 30, longitude: -40))
        #expect(nearest.name == "Ribeira Grande" && abs(distance - 1403.38) < 0.01)
        #expect(Self.name(places, 0, 0) == nil)
    }

    @Test func theNearestPlaceMayBeAcrossTheAntimeridianEitherWay() throws {
        let places = try PlacesData.places()
        // East of the antimeridian in Chukotka: Egvekinot is at 179.1°W, 55 km away, Beringovskiy 327 km.
        #expect(Self.name(places, 66.0, 179.95) == PlaceName(city: "Egvekinot", country: "Russia"))
        let (east, eastKm) = try #require(places.index.nearest(latitude: 66.0, longitude: 179.95))
        #expect(east.longitude < -179 && abs(eastKm - 54.94) < 0.01)
        // West of it near Fiji: Lambasa is at 179.38°E, 88 km away.
        #expect(Self.name(places, -16.5, -179.8) == PlaceName(city: "Lambasa", country: "Fiji"))
        let (west, westKm) = try #require(places.index.nearest(latitude: -16.5, longitude: -179.8))
        #expect(west.longitude > 179 && abs(westKm - 87.58) < 0.01)
        // Both ends of the longitude range are the same meridian.
        #expect(places.index.nearest(latitude: 66.0, longitude: 180)?.place == places.index.nearest(latitude: 66.0, longitude: -180)?.place)
    }

    @Test func thePolesFindTheFarthestNorthAndSouth() throws {
        let places = try PlacesData.places()
        #expect(places.index.nearest(latitude: 89.9, longitude: 10)?.place.name == "Longyearbyen")
        #expect(places.index.nearest(latitude: 90, longitude: -170)?.place.name == "Longyearbyen")
        #expect(places.index.nearest(latitude: -90, longitude: 0)?.place.name == "McMurdo Station")
        #expect(Self.name(places, 89.9, 10) == nil)
    }

    /// The tree finds exactly what a scan of every place finds, all over the globe (the poles and the
    /// antimeridian included) — by distance, since two places may be equally near.
    @Test func theTreeAgreesWithAScanOfEveryPlace() throws {
        let places = try PlacesData.places()
        var generator = SeededGenerator(seed: 2026)
        var probes: [(Double, Double)] = [(90, 0), (-90, 0), (0, 180), (0, -180), (89.999, 179.999), (-60, 179.99), (52, -179.99)]
        for _ in 0..<60 {
            let latitude = Double(generator.index(below: 180_000)) / 1000 - 90
            let longitude = Double(generator.index(below: 360_000)) / 1000 - 180
            probes.append((latitude, longitude))
        }
        let all = places.index.places
        for (latitude, longitude) in probes {
            let target = GeoCoordinate(latitude: latitude, longitude: longitude)!
            var best = Double.infinity
            for place in all {
                best = min(best, target.distanceKm(to: GeoCoordinate(latitude: place.latitude, longitude: place.longitude)!))
            }
            let found = try #require(places.index.nearest(latitude: latitude, longitude: longitude))
            #expect(abs(found.distanceKm - best) < 1e-6, "(\(latitude), \(longitude)): \(found.place.label) at \(found.distanceKm) km, a scan found \(best) km")
        }
    }
}
