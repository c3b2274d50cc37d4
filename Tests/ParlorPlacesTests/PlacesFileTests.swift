import ParlorPlaces
import Testing

/// Both forms cities1000 comes in, read line by line; what cannot be read is skipped or refused.
@Suite struct PlacesFileTests {
    @Test func reverseGeocoderCSVWithQuotedFields() throws {
        let csv = [
            "lat,lon,name,admin1,admin2,cc\r",
            #"47.25368,8.85654,"Rueti / Dorfzentrum, Suedl. Teil",Zurich,Bezirk Hinwil,CH\#r"#,
            #"12.58472,-81.70056,San Andres,"Archipielago de San Andres, ""Providencia""",,co"#,
            "91.0,0,Too North,,,XX",
            "1,2,Too few fields,,XX",
            "1,x,Bad number,,,XX",
            #"3,4,"Open quote,,,XX"#,
            "",
        ].joined(separator: "\n")
        let contents = try PlacesFile.parse(Array(csv.utf8))
        #expect(contents.places == [
            Place(name: "Rueti / Dorfzentrum, Suedl. Teil", admin1: "Zurich", countryCode: "CH", latitude: 47.25368, longitude: 8.85654),
            Place(name: "San Andres", admin1: "Archipielago de San Andres, \"Providencia\"", countryCode: "CO", latitude: 12.58472, longitude: -81.70056),
        ])
        #expect(contents.skippedLines == 4)
    }

    @Test func geoNamesDumpWithPopulations() throws {
        let columns = ["2988507", "Paris", "Paris", "Lutetia,Paname", "48.85341", "2.3488", "P", "PPLC", "FR", "", "11", "75", "751", "75056",
                       "2138551", "", "42", "Europe/Paris", "2024-01-01"]
        let contents = try PlacesFile.parse(Array((columns.joined(separator: "\t") + "\n").utf8))
        #expect(contents.places == [Place(name: "Paris", admin1: "11", countryCode: "FR", latitude: 48.85341, longitude: 2.3488, population: 2_138_551)])
    }

    @Test func emptyOrForeignFilesAreRefusedWithASentence() {
        #expect(throws: PlacesFileError.self) { try PlacesFile.parse([]) }
        #expect((try? PlacesFile.parse(Array("name,country\nParis,FR\n".utf8))) == nil)
        #expect((try? PlacesFile.parse(Array("lat,lon,name,admin1,admin2,cc\n".utf8))) == nil)
        do {
            _ = try PlacesFile.read(path: "/nonexistent/cities.csv")
            Issue.record("a missing file was read")
        } catch {
            #expect(error.description.hasPrefix("/nonexistent/cities.csv cannot be read"))
        }
    }
}
