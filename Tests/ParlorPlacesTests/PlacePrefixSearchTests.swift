import ParlorPlaces
import Testing

/// Suggestions while a player types a place's name: the start of a name, without case or accents, the
/// place named exactly that first, then the most populous, then the shortest names.
@Suite struct PlacePrefixSearchTests {
    static let places = [
        Place(name: "Parma", admin1: "Emilia-Romagna", countryCode: "IT", latitude: 44.8, longitude: 10.33, population: 175_000),
        Place(name: "Paris", admin1: "Texas", countryCode: "US", latitude: 33.66, longitude: -95.56, population: 25_000),
        Place(name: "Paris", admin1: "Ile-de-France", countryCode: "FR", latitude: 48.85, longitude: 2.35, population: 2_100_000),
        Place(name: "Parla", admin1: "Madrid", countryCode: "ES", latitude: 40.24, longitude: -3.77, population: 130_000),
        Place(name: "Pärnu", admin1: "Parnumaa", countryCode: "EE", latitude: 58.39, longitude: 24.5, population: 50_000),
        Place(name: "Lyon", admin1: "Auvergne-Rhone-Alpes", countryCode: "FR", latitude: 45.75, longitude: 4.85, population: 500_000),
    ]

    @Test func theStartOfANameFindsTheMostPopulousFirst() {
        let search = PlacePrefixSearch(Self.places)
        #expect(search.places(startingWith: "par", limit: 8).map(\.label) == [
            "Paris, Ile-de-France, FR", "Parma, Emilia-Romagna, IT", "Parla, Madrid, ES", "Pärnu, Parnumaa, EE", "Paris, Texas, US",
        ])
        #expect(search.places(startingWith: "PAR", limit: 2).map(\.name) == ["Paris", "Parma"])
        // Accents fold away, as in the search by whole name.
        #expect(search.places(startingWith: "parn", limit: 8).map(\.countryCode) == ["EE"])
        #expect(search.places(startingWith: " ly ", limit: 8).map(\.name) == ["Lyon"])
    }

    @Test func aPlaceNamedExactlyWhatWasTypedComesFirst() {
        let search = PlacePrefixSearch(Self.places + [
            Place(name: "Parisville", admin1: "", countryCode: "US", latitude: 40, longitude: -80, population: 9_000_000),
        ])
        #expect(search.places(startingWith: "paris", limit: 8).map(\.name) == ["Paris", "Paris", "Parisville"])
    }

    @Test func withoutPopulationsTheShortestNamesComeFirst() {
        let search = PlacePrefixSearch([
            Place(name: "Santa Monica", admin1: "California", countryCode: "US", latitude: 34, longitude: -118.5),
            Place(name: "Santos", admin1: "Sao Paulo", countryCode: "BR", latitude: -23.96, longitude: -46.33),
            Place(name: "Santa Fe", admin1: "New Mexico", countryCode: "US", latitude: 35.69, longitude: -105.94),
        ])
        #expect(search.places(startingWith: "sant", limit: 8).map(\.name) == ["Santos", "Santa Fe", "Santa Monica"])
    }

    @Test func nothingMatchesNothingOrAnEmptyPrefix() {
        let search = PlacePrefixSearch(Self.places)
        #expect(search.places(startingWith: "zzz", limit: 8).isEmpty)
        #expect(search.places(startingWith: "   ", limit: 8).isEmpty)
        #expect(search.places(startingWith: "par", limit: 0).isEmpty)
        #expect(PlacePrefixSearch([]).places(startingWith: "a", limit: 8).isEmpty)
        // Past the last name in sorted order.
        #expect(search.places(startingWith: "zz", limit: 8).isEmpty)
    }

    @Test func aShortPrefixOverManyPlacesPicksTheBestAsAFullSortWould() {
        // Names from a fixed scramble, populations with ties, some without.
        let syllables = ["sa", "san", "ta", "to", "ma", "mar", "ri", "ro", "na", "no"]
        let places = (0..<3000).map { index in
            let name = syllables[index % 10].capitalized + syllables[(index / 10) % 10] + syllables[(index * 7 / 100) % 10]
            let population: Int? = index % 3 == 0 ? nil : (index * 7919) % 500
            return Place(name: name, admin1: "A\(index)", countryCode: "XX", latitude: 0, longitude: 0, population: population)
        }
        let search = PlacePrefixSearch(places)
        for prefix in ["s", "sa", "san", "m", "mar", "t", "to", "x"] {
            let reference = places.filter { $0.name.lowercased().hasPrefix(prefix) }.sorted { lhs, rhs in
                let (lhsExact, rhsExact) = (lhs.name.lowercased() == prefix, rhs.name.lowercased() == prefix)
                if lhsExact != rhsExact { return lhsExact }
                if (lhs.population ?? 0) != (rhs.population ?? 0) { return (lhs.population ?? 0) > (rhs.population ?? 0) }
                if lhs.name.count != rhs.name.count { return lhs.name.count < rhs.name.count }
                if lhs.name.lowercased() != rhs.name.lowercased() { return lhs.name.lowercased() < rhs.name.lowercased() }
                return lhs.label < rhs.label
            }
            #expect(search.places(startingWith: prefix, limit: 20) == Array(reference.prefix(20)), "\(prefix)")
        }
    }
}
