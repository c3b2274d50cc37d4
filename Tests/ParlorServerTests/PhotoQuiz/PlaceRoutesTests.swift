import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// `GET /places` and `GET /places/map` over the wire: what a search finds, its bounds and their codes,
/// the map's `ETag` and `304`, the rate limit, and a server with no places data saying so.
@Suite struct PlaceRoutesTests {
    static func places(_ response: QuizWire.Response) -> [[String: Any]] {
        response.json?["places"] as? [[String: Any]] ?? []
    }

    @Test func aSearchSuggestsPlacesByTheStartOfTheirName() async throws {
        try await withParlor(configure: QuizWire.configure) { parlor in
            let found = try await QuizWire.http(parlor.port, "GET", "/places?q=par&limit=8")
            #expect(found.status == 200, "\(String(decoding: found.body, as: UTF8.self))")
            let paris = try #require(Self.places(found).first)
            #expect(Self.places(found).count == 1)
            #expect(paris["name"] as? String == "Paris" && paris["countryCode"] as? String == "FR")
            #expect(paris["country"] as? String == "France" && paris["label"] as? String == "Paris, Ile-de-France, FR")
            #expect(paris["latitude"] as? Double == 48.85341 && paris["longitude"] as? Double == 2.3488)
            // Percent-encoded, any case, the default limit; and a limit that cuts the list short.
            let newYork = try await QuizWire.http(parlor.port, "GET", "/places?q=NEW%20y")
            #expect(Self.places(newYork).map { $0["name"] as? String } == ["New York City"])
            #expect(Self.places(try await QuizWire.http(parlor.port, "GET", "/places?q=zzz")).isEmpty)
            // Only spaces is nothing typed.
            QuizPhotoHTTPTests.refused(try await QuizWire.http(parlor.port, "GET", "/places?q=%20%20&limit=2"), 400, "INVALID_INPUT")
        }
    }

    @Test func searchesOutOfBoundsAreRefusedWithTheirCode() async throws {
        try await withParlor(configure: QuizWire.configure) { parlor in
            let port = parlor.port
            QuizPhotoHTTPTests.refused(try await QuizWire.http(port, "GET", "/places"), 400, "INVALID_INPUT")
            QuizPhotoHTTPTests.refused(try await QuizWire.http(port, "GET", "/places?q="), 400, "INVALID_INPUT")
            let long = String(repeating: "a", count: PlaceRoutes.maxQueryLength + 1)
            QuizPhotoHTTPTests.refused(try await QuizWire.http(port, "GET", "/places?q=\(long)"), 400, "INVALID_INPUT")
            #expect(try await QuizWire.http(port, "GET", "/places?q=\(long.dropLast())").status == 200)
            for limit in ["0", "21", "-1", "many", ""] {
                QuizPhotoHTTPTests.refused(try await QuizWire.http(port, "GET", "/places?q=par&limit=\(limit)"), 400, "INVALID_INPUT")
            }
            #expect(try await QuizWire.http(port, "GET", "/places?q=par&limit=20").status == 200)
            QuizPhotoHTTPTests.refused(try await QuizWire.http(port, "POST", "/places?q=par"), 405, "METHOD_NOT_ALLOWED")
        }
    }

    @Test func theMapIsABitmapOfCellsWithAnETag() async throws {
        try await withParlor(configure: QuizWire.configure) { parlor in
            let map = try await QuizWire.http(parlor.port, "GET", "/places/map")
            #expect(map.status == 200)
            #expect(map.headers["content-type"] == "application/json")
            let json = try #require(map.json)
            let (degrees, columns, rows) = (json["cellDegrees"] as? Int, json["columns"] as? Int, json["rows"] as? Int)
            #expect(degrees == 2 && columns == 180 && rows == 90)
            let cells = try #require(Data(base64Encoded: json["cells"] as? String ?? ""))
            #expect(cells.count == 180 * 90 / 8)
            // Five places in five different cells; Paris's is row 20, column 91.
            #expect(cells.reduce(0) { $0 + $1.nonzeroBitCount } == 5)
            let paris = 20 * 180 + 91
            #expect(cells[paris / 8] & (0x80 >> UInt8(paris % 8)) != 0)
            let etag = try #require(map.headers["etag"])
            let again = try await QuizWire.http(parlor.port, "GET", "/places/map", headers: [("If-None-Match", etag)])
            #expect(again.status == 304 && again.body.isEmpty)
            #expect(again.headers["etag"] == etag)
            let stale = try await QuizWire.http(parlor.port, "GET", "/places/map", headers: [("If-None-Match", "\"other\"")])
            #expect(stale.status == 200)
        }
    }

    @Test func aServerWithoutPlacesSaysSo() async throws {
        // The harness runs without places data.
        try await withParlor { parlor in
            QuizPhotoHTTPTests.refused(try await QuizWire.http(parlor.port, "GET", "/places?q=par"), 503, "PLACES_UNAVAILABLE")
            QuizPhotoHTTPTests.refused(try await QuizWire.http(parlor.port, "GET", "/places/map"), 503, "PLACES_UNAVAILABLE")
            // Bounds are checked first: a bad request is still a bad request.
            QuizPhotoHTTPTests.refused(try await QuizWire.http(parlor.port, "GET", "/places?q="), 400, "INVALID_INPUT")
        }
    }

    @Test func searchesCountAgainstTheRateLimit() async throws {
        try await withParlor(configure: {
            QuizWire.configure(&$0)
            // Without a token a search counts against its address.
            $0.limits.addressRequestBurst = 3
            $0.limits.addressRequestsPerSecond = RateLimitTests.noRefill
            $0.limits.exemptAddresses = []
        }) { parlor in
            var statuses: [Int] = []
            for _ in 0..<6 { statuses.append(try await QuizWire.http(parlor.port, "GET", "/places?q=par").status) }
            #expect(statuses.prefix(3).allSatisfy { $0 == 200 })
            #expect(statuses.contains(429))
        }
    }
}
