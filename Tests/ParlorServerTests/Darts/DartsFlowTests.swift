import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// Darts matches over real sockets against the server on port 0.
@Suite struct DartsFlowTests {
    @Test func twoPlayersAndASpectatorPlayA301LegToTheFinish() async throws {
        try await withParlor { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    try await parlor.connect(signIn: false) { spectator in
                        let code = try await DartsWire.seat(ann, [bo])
                        #expect(code.count == 5)
                        let watching = try await DartsWire.observe(spectator, code)
                        let annSub = try await DartsWire.observe(ann, code)
                        let boSub = try await DartsWire.observe(bo, code)
                        let started = try #require(try await ann.call("startMatch", ["code": code]).result)
                        #expect(started["status"] as? String == "playing" && started["currentPlayerId"] as? String == ann.userId)
                        #expect(started["leg"] as? Int == 1 && started["set"] as? Int == 1 && started["checkout"] is NSNull)

                        let a1 = try #require(try await DartsWire.visit(ann, code, player: ann.userId!, "T20 T20 T20").result)
                        #expect(DartsWire.player(a1, 0)?["remaining"] as? Int == 121 && a1["currentPlayerId"] as? String == bo.userId)
                        // Bo enters his visit as a total.
                        let b1 = try #require(try await bo.call("recordVisit", ["code": code, "playerId": bo.userId!, "total": 100]).result)
                        #expect(DartsWire.player(b1, 1)?["remaining"] as? Int == 201)
                        #expect(b1["checkout"] as? [String] == ["T20", "T7", "D20"])  // for Ann, on 121
                        let bust = try #require(try await DartsWire.visit(ann, code, player: ann.userId!, "T20 T20 D1").result)
                        let bustVisit = try #require((DartsWire.player(bust, 0)?["visits"] as? [[String: Any]])?.last)
                        #expect(bustVisit["isBust"] as? Bool == true && bustVisit["remainingAfter"] as? Int == 121)
                        // T20 T20 leaves 1: the bust; D1 after it counts nothing.
                        #expect(bustVisit["darts"] as? [String] == ["T20", "T20", "D1"] && bustVisit["total"] as? Int == 120)
                        _ = try await DartsWire.visit(bo, code, player: bo.userId!, "T20 T20 T20")
                        let finished = try #require(try await DartsWire.visit(ann, code, player: ann.userId!, "T20 T11 D14").result)
                        #expect(finished["status"] as? String == "finished" && finished["winnerId"] as? String == ann.userId)
                        #expect(finished["currentPlayerId"] is NSNull && finished["finishedAt"] is String)
                        let stats = try #require(DartsWire.player(finished, 0)?["stats"] as? [String: Any])
                        #expect(stats["threeDartAverage"] as? Double == 100.33)  // 301 in 9 darts
                        #expect(stats["highestCheckout"] as? Int == 121 && stats["count180"] as? Int == 1 && stats["dartsThrown"] as? Int == 9)
                        #expect(stats["checkoutPercent"] as? Double == 50 && stats["legsWon"] as? Int == 1)
                        #expect(DartsWire.player(finished, 0)?["legsWon"] as? Int == 1)
                        let last = try #require(finished["version"] as? Int)
                        #expect(last == 8)

                        // Every observer saw every version from the one it subscribed at, in order.
                        #expect(try await DartsWire.versions(spectator, watching, through: last) == Array(2...last))
                        #expect(try await DartsWire.versions(ann, annSub, through: last) == Array(2...last))
                        #expect(try await DartsWire.versions(bo, boSub, through: last) == Array(2...last))

                        // The finished match is in both players' history, in the seed's shape.
                        for player in [ann, bo] {
                            let history = try #require(try await player.call("listMatches").result)
                            let records = try #require(history["matches"] as? [[String: Any]])
                            #expect(records.count == 1 && history["nextBefore"] == nil)
                            let record = try #require(records.first)
                            #expect(record["game_type"] as? String == "301" && record["winner_id"] as? String == ann.userId)
                            #expect(record["started_at"] is String && record["ended_at"] as? String == finished["finishedAt"] as? String)
                            let players = try #require(record["players"] as? [[String: Any]])
                            #expect(players.map { $0["player_id"] as? String } == [ann.userId, bo.userId])
                            #expect(players.map { $0["order"] as? Int } == [0, 1])
                            #expect((players[0]["stats"] as? [String: Any])?["three_dart_average"] as? Double == 100.33)
                            #expect((record["metadata"] as? [String: Any])?["duration_seconds"] is Int)
                        }
                        #expect(try await spectator.call("listMatches").errorCode == "UNAUTHENTICATED")
                    }
                }
            }
        }
    }

    @Test func theHostScoresForAGuestAndEditsTheLastVisit() async throws {
        try await withParlor { parlor in
            try await parlor.connect { ann in
                let code = try await DartsWire.seat(ann, [], settings: ["gameType": "501", "legs": 2])
                let added = try #require(try await ann.call("addGuest", ["code": code, "name": "Gil"]).result)
                let gil = try #require(DartsWire.player(added, 1))
                let gilId = try #require(gil["id"] as? String)
                #expect(gil["isGuest"] as? Bool == true && UUID(uuidString: gilId) != nil && gilId != ann.userId)
                _ = try await ann.call("startMatch", ["code": code])
                _ = try await DartsWire.visit(ann, code, player: ann.userId!, "T20 T20 T20")
                let guestVisit = try #require(try await DartsWire.visit(ann, code, player: gilId, "S20 S20 S20").result)
                #expect(DartsWire.player(guestVisit, 1)?["remaining"] as? Int == 441)
                let lastVisit = try #require(guestVisit["lastVisit"] as? [String: Any])
                #expect(lastVisit["number"] as? Int == 2 && lastVisit["playerId"] as? String == gilId && lastVisit["recordedBy"] as? String == ann.userId)
                let edited = try #require(try await ann.call("editLastVisit", ["code": code, "visit": 2, "darts": ["T20", "S20", "S20"]]).result)
                #expect(DartsWire.player(edited, 1)?["remaining"] as? Int == 401 && edited["currentPlayerId"] as? String == ann.userId)
                let stale = try await ann.call("editLastVisit", ["code": code, "visit": 1, "total": 60])
                #expect(stale.errorCode == "INVALID_STATE" && stale.errorMessage == "Only the last visit (#2) can be edited; visit #1 is final.")
                // A guest is in nobody's history by id; the host still is.
                let removed = try await ann.call("removePlayer", ["code": code, "playerId": gilId])
                #expect(removed.errorCode == "INVALID_STATE")
                #expect(try await ann.call("getMatch", ["code": code]).result?["version"] as? Int == edited["version"] as? Int)
            }
        }
    }

    @Test func checkoutAnswersAnyoneWithoutAMatch() async throws {
        try await withParlor { parlor in
            try await parlor.connect(signIn: false) { anyone in
                #expect(try await anyone.call("checkout", ["score": 170, "darts": 3]).result?["darts"] as? [String] == ["T20", "T20", "DB"])
                #expect(try await anyone.call("checkout", ["score": 169, "darts": 3])["result"].map { ($0 as? [String: Any])?["darts"] is NSNull } == true)
                #expect(try await anyone.call("checkout", ["score": 60, "darts": 1, "outRule": "straight"]).result?["darts"] as? [String] == ["T20"])
                #expect(try await anyone.call("checkout", ["score": 501, "darts": 3]).result?["darts"] is NSNull)
                #expect(try await anyone.call("checkout", ["score": 0, "darts": 3]).errorCode == "INVALID_INPUT")
                #expect(try await anyone.call("checkout", ["score": 40, "darts": 4]).errorCode == "INVALID_INPUT")
                let rule = try await anyone.call("checkout", ["score": 40, "darts": 1, "outRule": "triple"])
                #expect(rule.errorCode == "INVALID_INPUT" && rule.errorMessage?.contains("outRule") == true)
            }
        }
    }

    @Test func aMatchAndItsTurnSurviveARestart() async throws {
        try await withTemporaryDirectory { directory in
            let first = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            let (code, annToken, boId) = try await withParlor(store: first) { parlor in
                try await parlor.connect { ann in
                    try await parlor.connect { bo in
                        let code = try await DartsWire.seat(ann, [bo], settings: ["gameType": "501", "inRule": "double", "sets": 2])
                        _ = try await ann.call("startMatch", ["code": code])
                        _ = try await DartsWire.visit(ann, code, player: ann.userId!, "S20 D20 T20")
                        return (code, ann.token!, bo.userId!)
                    }
                }
            }
            await first.close()
            let second = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            try await withParlor(store: second) { parlor in
                try await parlor.connect(token: annToken) { ann in
                    let match = try #require(try await ann.call("getMatch", ["code": code]).result)
                    #expect(match["version"] as? Int == 4 && match["currentPlayerId"] as? String == boId)
                    #expect(match["inRule"] as? String == "double" && match["sets"] as? Int == 2)
                    #expect(DartsWire.player(match, 0)?["remaining"] as? Int == 401)  // S20 before the double scored nothing
                    // The host enters Bo's visit after the restart; the match goes on from where it was.
                    let next = try #require(try await ann.call("recordVisit", ["code": code, "playerId": boId, "darts": ["D20", "M", "M"]]).result)
                    #expect(next["version"] as? Int == 5 && DartsWire.player(next, 1)?["remaining"] as? Int == 461)
                }
            }
            await second.close()
        }
    }
}
