import Foundation
import ParlorTestSupport
import Testing

/// Darts requests as a test sends them, over one `JSONConnection`.
enum DartsWire {
    /// Creates a match as `host` (301, one leg, unless `settings` say otherwise) and seats `players`;
    /// returns the code.
    static func seat(_ host: JSONConnection, _ players: [JSONConnection] = [], settings: [String: Any] = [:]) async throws -> String {
        let created = try await host.call("createMatch", ["gameType": "301", "playerName": "Ann"].merging(settings) { $1 })
        #expect(created.result?["currentUserId"] as? String == host.userId, "\(created)")
        let code = try #require((created.result?["match"] as? [String: Any])?["id"] as? String, "\(created)")
        for (index, player) in players.enumerated() {
            let joined = try await player.call("joinMatch", ["code": code, "playerName": ["Bo", "Cy", "Di"][index % 3]])
            #expect(joined.result?["currentUserId"] as? String == player.userId, "\(joined)")
        }
        return code
    }

    /// Records `darts` ("T20 T20 T20") for `player` as `by`, and returns the reply.
    static func visit(_ by: JSONConnection, _ code: String, player: String, _ darts: String) async throws -> [String: Any] {
        try await by.call("recordVisit", ["code": code, "playerId": player, "darts": darts.split(separator: " ").map(String.init)])
    }

    static func observe(_ client: JSONConnection, _ code: String) async throws -> Int {
        try #require(try await client.call("observeMatch", ["code": code]).result?["subscription"] as? Int)
    }

    /// The versions `sub` delivers up to `last`, in the order they came.
    static func versions(_ client: JSONConnection, _ sub: Int, through last: Int) async throws -> [Int] {
        var seen: [Int] = []
        while seen.last.map({ $0 < last }) ?? true {
            let event = try await client.nextEvent(sub: sub)
            #expect(event["event"] as? String == "match")
            seen.append(try #require((event["data"] as? [String: Any])?["version"] as? Int))
        }
        return seen
    }

    static func player(_ match: [String: Any]?, _ index: Int) -> [String: Any]? {
        (match?["players"] as? [[String: Any]]).flatMap { index < $0.count ? $0[index] : nil }
    }
}
