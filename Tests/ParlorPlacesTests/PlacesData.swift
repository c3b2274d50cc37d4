import Foundation
import ParlorPlaces

/// GeoNames' cities1000 as `scripts/setup.sh` installs it, loaded once for every test that needs it.
enum PlacesData {
    static let path = ProcessInfo.processInfo.environment["PARLOR_PLACES"] ?? Places.defaultPath

    static let shared: Result<Places, PlacesFileError> = Result { () throws(PlacesFileError) in try Places.load(path: path) }

    /// The loaded places; a missing file fails the test with what to do about it.
    static func places() throws -> Places {
        switch shared {
        case .success(let places): return places
        case .failure(let error): throw MissingPlaces(description: "\(error) — run scripts/setup.sh, which installs GeoNames' cities1000 there.")
        }
    }

    struct MissingPlaces: Error, CustomStringConvertible {
        let description: String
    }
}
