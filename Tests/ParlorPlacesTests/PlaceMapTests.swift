import ParlorPlaces
import Testing

/// The world map of where places are: one bit per cell, rows from the north, columns from 180° W.
@Suite struct PlaceMapTests {
    @Test func eachPlaceSetsTheCellItLiesIn() {
        let map = PlaceMap([
            Place(name: "Paris", admin1: "", countryCode: "FR", latitude: 48.85, longitude: 2.35),
            Place(name: "Sydney", admin1: "", countryCode: "AU", latitude: -33.87, longitude: 151.21),
            // The corners of the grid: the north pole at the antimeridian, the south pole at 180° E.
            Place(name: "North", admin1: "", countryCode: "", latitude: 90, longitude: -180),
            Place(name: "South", admin1: "", countryCode: "", latitude: -90, longitude: 180),
        ], cellDegrees: 2)
        #expect(map.columns == 180 && map.rows == 90)
        #expect(map.cells.count == 180 * 90 / 8)
        // Paris: (90 − 48.85) / 2 = row 20; (2.35 + 180) / 2 = column 91.
        #expect(map.isSet(row: 20, column: 91))
        // Sydney: (90 + 33.87) / 2 = row 61; (151.21 + 180) / 2 = column 165.
        #expect(map.isSet(row: 61, column: 165))
        #expect(map.isSet(row: 0, column: 0))
        #expect(map.isSet(row: 89, column: 0))
        let set = (0..<map.rows).flatMap { row in (0..<map.columns).filter { map.isSet(row: row, column: $0) } }
        #expect(set.count == 4)
        #expect(!map.isSet(row: -1, column: 0) && !map.isSet(row: 0, column: 180))
    }

    @Test func theBitsRunFromTheHighestBitOfTheFirstByte() {
        let map = PlaceMap([Place(name: "Corner", admin1: "", countryCode: "", latitude: 89.5, longitude: -179.5)], cellDegrees: 1)
        #expect(map.columns == 360 && map.rows == 180)
        #expect(map.cells[0] == 0x80)
        #expect(map.cells.dropFirst().allSatisfy { $0 == 0 })
    }
}
