import Foundation
import ParlorRules

/// Players' tallies as the SQLite store keeps them: one JSON object of counts per player.
enum TallyJSON {
    /// Each player's tally as JSON, by user id.
    static func encode(_ tallies: [UserID: PlayerTally]) throws(StoreError) -> [String: String] {
        var encoded: [String: String] = [:]
        for (user, tally) in tallies { encoded[user.rawValue] = try encode(tally) }
        return encoded
    }

    static func encode(_ tally: PlayerTally) throws(StoreError) -> String {
        try StoredJSON.encode(tally, what: "a player's tally")
    }

    static func decode(_ json: String, location: String) throws(StoreError) -> PlayerTally {
        try StoredJSON.decode(PlayerTally.self, from: json, what: "player's tally", location: location)
    }
}
