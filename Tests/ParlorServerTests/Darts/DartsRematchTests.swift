import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// `rematchMatch`, the kernel's rematch for darts: the host of a finished match starts the next one,
/// everyone following the old match learns its code, asking again answers the same code (also at its
/// declared route), and the new match is played and filed like any other.
@Suite struct DartsRematchServerTests {
    @Test func theHostPlaysAFinishedMatchAgainAndEveryFollowerLearnsWhere() async throws {
        try await withParlor { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    try await parlor.connect(signIn: false) { spectator in
                        let code = try await DartsWire.seat(ann, [bo], settings: ["outRule": "double", "capacity": 3])
                        _ = try await ann.call("startMatch", ["code": code])
                        let early = try await ann.call("rematchMatch", ["code": code])
                        #expect(early.errorCode == "INVALID_STATE" && early.errorMessage == "Match \(code) is not finished; a rematch starts once it is.")
                        _ = try await DartsWire.visit(ann, code, player: ann.userId!, "T20 T20 T20")
                        _ = try await DartsWire.visit(bo, code, player: bo.userId!, "T20 T20 T20")
                        let finished = try #require(try await DartsWire.visit(ann, code, player: ann.userId!, "T20 T11 D14").result)
                        #expect(finished["status"] as? String == "finished" && finished["rematch"] is NSNull)
                        let version = try #require(finished["version"] as? Int)
                        let watching = try await DartsWire.observe(spectator, code)
                        #expect(try await spectator.nextEvent(sub: watching)["data"].flatMap { ($0 as? [String: Any])?["version"] as? Int } == version)

                        #expect(try await bo.call("rematchMatch", ["code": code]).errorCode == "NOT_HOST")
                        let next = try #require(try await ann.call("rematchMatch", ["code": code]).result?["code"] as? String)
                        #expect(next != code && next.count == 5)
                        // Asking again — anyone, over the WebSocket or HTTP — answers the same code.
                        #expect(try await ann.call("rematchMatch", ["code": code]).result?["code"] as? String == next)
                        #expect(try await bo.call("rematchMatch", ["code": code]).result?["code"] as? String == next)
                        let (status, body) = try await parlor.http("POST", "/darts/\(code)/rematch", token: ann.token)
                        #expect(status == 200 && (body as? [String: Any])?["code"] as? String == next)

                        let announced = try #require(try await spectator.nextEvent(sub: watching)["data"] as? [String: Any])
                        #expect(announced["rematch"] as? String == next && announced["version"] as? Int == version + 1)
                        #expect(try await ann.call("getMatch", ["code": code]).result?["rematch"] as? String == next)

                        // The same settings and players, Bo now first to throw, fresh scores.
                        let rematch = try #require(try await spectator.call("getMatch", ["code": next]).result)
                        #expect(rematch["status"] as? String == "playing" && rematch["hostId"] as? String == ann.userId)
                        #expect(rematch["gameType"] as? String == "301" && rematch["outRule"] as? String == "double" && rematch["capacity"] as? Int == 3)
                        #expect((rematch["players"] as? [[String: Any]])?.map { $0["id"] as? String } == [bo.userId, ann.userId])
                        #expect(rematch["currentPlayerId"] as? String == bo.userId && DartsWire.player(rematch, 1)?["remaining"] as? Int == 301)

                        // Played to the end, it is filed in both players' history beside the first.
                        _ = try await DartsWire.visit(bo, next, player: bo.userId!, "T20 T20 T20")
                        _ = try await DartsWire.visit(ann, next, player: ann.userId!, "T20 T20 T20")
                        let won = try #require(try await DartsWire.visit(bo, next, player: bo.userId!, "T20 T11 D14").result)
                        #expect(won["winnerId"] as? String == bo.userId)
                        for player in [ann, bo] {
                            let records = try #require(try await player.call("listMatches").result?["matches"] as? [[String: Any]])
                            #expect(records.count == 2 && Set(records.compactMap { $0["winner_id"] as? String }) == Set([ann.userId!, bo.userId!]))
                        }
                    }
                }
            }
        }
    }
}
