import Foundation
import ParlorRules
import ParlorWire
import Testing

/// The darts match view and history record carry exactly the contract's names, absent values as null.
@Suite struct MatchViewTests {
    static func match() throws -> DartsMatch {
        var match = try DartsMatch.create(
            id: "5d7c2d6e-0000-4000-8000-000000000001", code: MatchCode(parsing: "acdef"),
            settings: X01Settings(gameType: .x301, legs: 1), host: user(1), playerName: "Ann", at: t0)
        _ = try match.apply(.addGuest(name: "Gil", id: user(50)), by: user(1), at: t0)
        return match
    }

    @Test func aWaitingMatchSendsEveryFieldWithNulls() throws {
        let json = try parse(try WireJSON.encode(MatchView(try Self.match())))
        #expect(Set(json.keys) == [
            "id", "gameType", "inRule", "outRule", "legs", "sets", "capacity", "status", "hostId", "players", "currentPlayerId",
            "leg", "set", "checkout", "winnerId", "lastVisit", "rematch", "version", "createdAt", "startedAt", "finishedAt",
        ])
        #expect(json["id"] as? String == "ACDEF" && json["gameType"] as? String == "301" && json["status"] as? String == "waiting")
        #expect(json["inRule"] as? String == "straight" && json["outRule"] as? String == "double")
        for key in ["sets", "currentPlayerId", "checkout", "winnerId", "lastVisit", "rematch", "startedAt", "finishedAt"] {
            #expect(json[key] is NSNull, "\(key)")
        }
        let players = try #require(json["players"] as? [[String: Any]])
        #expect(Set(players[0].keys) == [
            "id", "name", "isGuest", "hasLeft", "order", "remaining", "legsWon", "setsWon", "visits", "stats", "legStats",
        ])
        #expect(players[1]["isGuest"] as? Bool == true && players[1]["order"] as? Int == 1 && players[1]["remaining"] as? Int == 301)
        let stats = try #require(players[0]["stats"] as? [String: Any])
        #expect(Set(stats.keys) == [
            "threeDartAverage", "firstNineAverage", "checkoutPercent", "highestCheckout", "count180", "count140Plus",
            "count100Plus", "dartsThrown", "legsWon",
        ])
    }

    @Test func aVisitEnteredAsATotalHasNullDarts() throws {
        var match = try Self.match()
        _ = try match.apply(.start, by: user(1), at: t0)
        _ = try match.apply(.recordVisit(playerId: user(1), visit: VisitInput(total: 100)), by: user(1), at: t0)
        _ = try match.apply(.recordVisit(playerId: user(50), visit: VisitInput(darts: ["t20", "s20", "db"])), by: user(1), at: t0)
        let view = MatchView(match)
        let json = try parse(try WireJSON.encode(view))
        let players = try #require(json["players"] as? [[String: Any]])
        let total = try #require((players[0]["visits"] as? [[String: Any]])?.first)
        #expect(total["darts"] is NSNull && total["total"] as? Int == 100 && total["dartsThrown"] as? Int == 3)
        #expect(Set(total.keys) == ["darts", "total", "isBust", "isCheckout", "dartsThrown", "remainingAfter"])
        #expect((players[1]["visits"] as? [[String: Any]])?.first?["darts"] as? [String] == ["T20", "S20", "DB"])
        #expect(json["lastVisit"] as? [String: Any] != nil && view.lastVisit?.number == 2)
        #expect(view.checkout == nil && view.currentPlayerId == user(1))  // Ann on 201
        // What a client decodes is what the server encoded.
        #expect(try WireJSON.decode(MatchView.self, from: try WireJSON.encode(view)) == view)
    }

    /// The hand-written encoder says exactly what `JSONEncoder` says, in every state of a match.
    @Test func theHandWrittenViewMatchesJSONEncoderByteForByte() throws {
        var match = try Self.match()
        var views = [MatchView(match)]
        _ = try match.apply(.start, by: user(1), at: t0)
        views.append(MatchView(match))
        for visit in [VisitInput(darts: ["T20", "T20", "T20"]), VisitInput(total: 26), VisitInput(darts: ["T20", "S1", "M"]),
                      VisitInput(darts: ["S1", "S1", "S1"]), VisitInput(darts: ["S20", "D20"])] {
            let seat = try #require(match.currentPlayer)
            _ = try match.apply(.recordVisit(playerId: match.players[seat].id, visit: visit), by: user(1), at: t0.adding(seconds: 60))
            views.append(MatchView(match))
        }
        #expect(match.status == .finished)
        for view in views {
            let fast = EncodedJSON(matchView: view)
            #expect(String(decoding: fast.bytes, as: UTF8.self) == String(decoding: try EncodedJSON(view).bytes, as: UTF8.self))
            #expect(try WireJSON.decode(MatchView.self, from: fast.bytes) == view)
        }
        #expect(["93.94", "71.2", "167", "0", "0.05", "100.33"] == [93.94, 71.2, 167, 0, 0.05, 100.33].map(MatchView.Stats.text))
    }

    @Test func aFinishedMatchIsRecordedInTheSeedsShape() throws {
        var match = try Self.match()
        _ = try match.apply(.start, by: user(1), at: t0)
        for visit in ["T20 T20 T20", "M M M", "T20 T11 M", "M M M"] {
            let seat = try #require(match.currentPlayer)
            _ = try match.apply(
                .recordVisit(playerId: match.players[seat].id, visit: VisitInput(darts: visit.split(separator: " ").map(String.init))),
                by: user(1), at: t0)
        }
        #expect(MatchRecord(match) == nil)
        _ = try match.apply(.recordVisit(playerId: user(1), visit: VisitInput(darts: ["D14"])), by: user(1), at: t0.adding(seconds: 754))
        let record = try #require(MatchRecord(match))
        let json = try parse(try WireJSON.encode(record))
        #expect(Set(json.keys) == ["id", "game_type", "players", "started_at", "ended_at", "winner_id", "metadata"])
        #expect(json["game_type"] as? String == "301" && json["winner_id"] as? String == user(1).rawValue)
        #expect(json["started_at"] as? String == "2026-01-30T12:34:56.789Z" && json["ended_at"] as? String == "2026-01-30T12:47:30.789Z")
        let metadata = try #require(json["metadata"] as? [String: Any])
        #expect(metadata["duration_seconds"] as? Int == 754 && metadata["code"] as? String == "ACDEF" && metadata["sets"] == nil)
        let players = try #require(json["players"] as? [[String: Any]])
        #expect(players[0]["player_id"] as? String == user(1).rawValue && players[0]["is_winner"] as? Bool == true)
        // A guest has a name and an order, no player_id.
        #expect(players[1]["player_id"] == nil && players[1]["name"] as? String == "Gil" && players[1]["order"] as? Int == 1)
        let stats = try #require(players[0]["stats"] as? [String: Any])
        // 301 in seven darts (the checkout took one).
        #expect(stats["three_dart_average"] as? Double == 129 && stats["highest_checkout"] as? Int == 28 && stats["count_180"] as? Int == 1)
        #expect(try WireJSON.decode(MatchRecord.self, from: try WireJSON.encode(record)) == record)
    }
}
