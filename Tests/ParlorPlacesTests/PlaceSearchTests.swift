import ParlorPlaces
import Testing

/// Places by the name a player types, in cities1000 and in a small list with populations.
@Suite struct PlaceSearchTests {
    @Test func namesAndQualifiersFindOnePlace() throws {
        let search = try PlacesData.places().search
        guard case .found(let lyon) = search.find("Lyon") else { Issue.record("Lyon"); return }
        #expect(lyon.countryCode == "FR" && abs(lyon.latitude - 45.74846) < 1e-9)
        guard case .found(let kyoto) = search.find("  kyoto , jp ") else { Issue.record("Kyoto, JP"); return }
        #expect(kyoto.name == "Kyoto" && kyoto.countryCode == "JP")
        guard case .found(let paris) = search.find("Paris, France") else { Issue.record("Paris, France"); return }
        #expect(paris.countryCode == "FR")
        guard case .found(let texas) = search.find("Paris, Texas") else { Issue.record("Paris, Texas"); return }
        #expect(texas.countryCode == "US" && texas.admin1 == "Texas")
        guard case .found(let zurich) = search.find("Zürich") else { Issue.record("Zürich"); return }
        #expect(zurich.countryCode == "CH")
    }

    @Test func anAmbiguousNameListsItsPlacesAndAnUnknownOneNone() throws {
        let search = try PlacesData.places().search
        guard case .ambiguous(let candidates) = search.find("Paris") else { Issue.record("Paris is ambiguous"); return }
        #expect(candidates.count == PlaceSearch.maxCandidates && Set(candidates.map(\.countryCode)).isSuperset(of: ["CA", "FR"]))
        #expect(candidates.contains { $0.label == "Paris, Ile-de-France, FR" })
        #expect(search.find("Xyzzyville") == .notFound)
        #expect(search.find("Paris, Atlantis") == .notFound)
        #expect(search.find(" , ") == .notFound)
    }

    @Test func withPopulationsTheClearlyLargestPlaceIsMeant() {
        let search = PlaceSearch([
            Place(name: "Paris", admin1: "Texas", countryCode: "US", latitude: 33.66, longitude: -95.56, population: 24_782),
            Place(name: "Paris", admin1: "11", countryCode: "FR", latitude: 48.85, longitude: 2.35, population: 2_138_551),
            Place(name: "Springfield", admin1: "IL", countryCode: "US", latitude: 39.8, longitude: -89.6, population: 114_394),
            Place(name: "Springfield", admin1: "MO", countryCode: "US", latitude: 37.2, longitude: -93.3, population: 169_176),
        ])
        #expect(search.find("Paris") == .found(Place(name: "Paris", admin1: "11", countryCode: "FR", latitude: 48.85, longitude: 2.35, population: 2_138_551)))
        guard case .ambiguous(let springfields) = search.find("Springfield") else { Issue.record("Springfield"); return }
        #expect(springfields.map(\.admin1) == ["MO", "IL"])
    }
}
