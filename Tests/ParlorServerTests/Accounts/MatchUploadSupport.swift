import Foundation
import Testing
@testable import ParlorServer

/// Uploads of matches played offline, as the app sends them.
enum Uploads {
    /// A 301 leg: `first` throws T20 T20 T20, `second` 100, `first` checks out with `finish` (121).
    static func leg(_ first: [String: Any], _ second: [String: Any], finish: [String] = ["T20", "T11", "D14"]) -> [[String: Any]] {
        [
            first.merging(["leg": 1, "turn": 1, "darts": ["T20", "T20", "T20"], "remaining": 121, "is_bust": false]) { a, _ in a },
            second.merging(["leg": 1, "turn": 2, "score": 100, "remaining": 201]) { a, _ in a },
            first.merging(["leg": 1, "turn": 3, "darts": finish, "remaining": 0]) { a, _ in a },
        ]
    }

    /// A match between `players` (`[player_id or name, …]` in throwing order), won by `winner`.
    static func match(
        id: String, players: [[String: Any]], winner: String?, updatedAt: String, startedAt: String = "2026-10-10T20:00:00Z",
        endedAt: String = "2026-10-10T20:20:00Z", duration: Int = 1200, turns: [[String: Any]]? = nil
    ) -> [String: Any] {
        var body: [String: Any] = [
            "id": id, "game_type": "301", "players": players, "started_at": startedAt, "ended_at": endedAt,
            "winner_id": winner ?? NSNull(), "metadata": ["duration_seconds": duration], "updated_at": updatedAt,
        ]
        if let turns { body["throws"] = turns }
        return body
    }

    static func newID() -> String { UUID().uuidString.lowercased() }
}

extension ParlorHarness {
    /// `GET /matches?user_id=`: the matches, newest first.
    func history(of user: AppUser, query: String = "") async throws -> [[String: Any]] {
        let (status, page) = try await http("GET", "/matches?user_id=\(user.id)\(query)", token: user.token)
        #expect(status == 200, "\(String(describing: page))")
        return try #require((page as? [String: Any])?["matches"] as? [[String: Any]])
    }
}
