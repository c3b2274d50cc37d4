import Foundation
import ParlorPlaces
import ParlorWire
import SystemTLS

/// What clients without a places file of their own (the browser) get from the server's: suggestions by
/// the start of a name, and the world map of where places are. Both are built once, in the background,
/// when the places have been read; the map's JSON and its `ETag` are made once and served from memory.
final class PlacesForClients: Sendable {
    struct Prepared: Sendable {
        let search: PlacePrefixSearch
        let map: EncodedJSON
        let mapETag: String
    }

    private let prepared: Task<Prepared?, Never>

    init(loader: PlacesLoader) {
        prepared = Task.detached(priority: .utility) {
            guard let places = await loader.places() else { return nil }
            let all = places.index.places
            let map = PlaceMap(all)
            guard let encoded = try? EncodedJSON(MapBody(map)) else { return nil }
            let digest = SHA256.hash(encoded.bytes).prefix(12).map { String(format: "%02x", $0) }.joined()
            return Prepared(search: PlacePrefixSearch(all), map: encoded, mapETag: "\"map-\(digest)\"")
        }
    }

    /// Nil when the server runs without places (`PLACES_UNAVAILABLE` to the client).
    func current() async -> Prepared? { await prepared.value }

    /// `GET /places/map`: `cells` is the bitmap in base64.
    struct MapBody: Encodable {
        let cellDegrees: Int
        let columns: Int
        let rows: Int
        let cells: String

        init(_ map: PlaceMap) {
            cellDegrees = map.cellDegrees
            columns = map.columns
            rows = map.rows
            cells = Data(map.cells).base64EncodedString()
        }
    }
}
