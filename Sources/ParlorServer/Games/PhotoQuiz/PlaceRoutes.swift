import NIOCore
import NIOHTTP1
import ParlorPlaces
import ParlorWire
import WebSocketCore

/// Places for clients that have no places file (the browser): `GET /places?q=par&limit=8` suggests
/// places whose name starts with `q`, and `GET /places/map` is the world map of where places are. No
/// sign-in; each request counts against the caller's rate like any other.
struct PlaceRoutes: Sendable {
    let places: PlacesForClients

    /// The longest `q`: longer than any place's name, short enough that a search stays cheap.
    static let maxQueryLength = 64
    static let defaultLimit = 8
    static let maxLimit = 20

    var routes: [HTTPRoute] {
        [
            HTTPRoute(.GET, "/places", access: .anyone) { [places] request, _ throws(WireError) in
                let (query, limit) = try Self.arguments(request.query)
                let found = try await Self.prepared(places).search.places(startingWith: query, limit: limit)
                return HTTPRoutes.json(.ok, try EncodedJSON.encoding(SearchBody(places: found.map(Suggestion.init))))
            },
            HTTPRoute(.GET, "/places/map", access: .anyone) { [places] request, _ throws(WireError) in
                let prepared = try await Self.prepared(places)
                // It changes only with the places file: a phone asks again with the tag and gets a 304.
                var headers: HTTPHeaders = ["ETag": prepared.mapETag, "Cache-Control": "no-cache"]
                if EntityTags.matches(prepared.mapETag, request.request.headers["If-None-Match"]) {
                    return HTTPResponse(status: .notModified, headers: headers)
                }
                headers.add(name: "Content-Type", value: "application/json")
                return HTTPResponse(status: .ok, headers: headers, body: ByteBuffer(bytes: prepared.map.bytes))
            },
        ]
    }

    /// `q` (trimmed, 1–64 characters) and `limit` (1–20, default 8).
    static func arguments(_ query: [String: String]) throws(WireError) -> (String, Int) {
        let text = (query["q"] ?? "").trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.count <= maxQueryLength else {
            throw WireError(.invalidInput, "q must be the start of a place's name, 1 to \(maxQueryLength) characters.")
        }
        guard let raw = query["limit"] else { return (text, defaultLimit) }
        guard let limit = Int(raw), (1...maxLimit).contains(limit) else {
            throw WireError(.invalidInput, "limit must be a whole number from 1 to \(maxLimit).")
        }
        return (text, limit)
    }

    private static func prepared(_ places: PlacesForClients) async throws(WireError) -> PlacesForClients.Prepared {
        guard let prepared = await places.current() else {
            throw WireError(.placesUnavailable, "This server has no places data: guess on the map instead. (Its operator can install it with scripts/setup.sh or pass --places FILE.)")
        }
        return prepared
    }

    struct SearchBody: Encodable {
        let places: [Suggestion]
    }

    /// A place as a suggestion shows it: `label` tells places of one name apart.
    struct Suggestion: Encodable {
        let name: String
        let admin1: String
        let countryCode: String
        let country: String?
        let label: String
        let latitude: Double
        let longitude: Double

        init(_ place: Place) {
            name = place.name
            admin1 = place.admin1
            countryCode = place.countryCode
            country = place.country
            label = place.label
            latitude = place.latitude
            longitude = place.longitude
        }
    }
}
