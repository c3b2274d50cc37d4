import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// Every error a darts client can trigger, over the wire, each with its code and canonical status, and
/// the connection still usable after it.
@Suite struct DartsErrorTests {
    @Test func everyMatchErrorOverTheWire() async throws {
        try await withParlor { parlor in
            try await parlor.connect(signIn: false) { anonymous in
                let refused = try await anonymous.call("createMatch", ["gameType": "501", "playerName": "Ann"])
                #expect(refused.errorCode == "UNAUTHENTICATED" && refused.errorStatus == "unauthenticated")
            }
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    try await parlor.connect { cy in
                        // Settings.
                        let gameType = try await ann.call("createMatch", ["gameType": "401", "playerName": "Ann"])
                        #expect(gameType.errorCode == "INVALID_INPUT" && gameType.errorStatus == "invalid-argument")
                        #expect(gameType.errorMessage == #"gameType must be one of "301", "501", "701" (got "401")."#)
                        #expect(try await ann.call("createMatch", ["gameType": "501", "inRule": "treble", "playerName": "A"]).errorMessage?.contains("inRule") == true)
                        #expect(try await ann.call("createMatch", ["gameType": "501", "legs": 0, "playerName": "A"]).errorMessage?.contains("legs") == true)
                        #expect(try await ann.call("createMatch", ["gameType": "501", "capacity": 9, "playerName": "A"]).errorCode == "INVALID_INPUT")
                        #expect(try await ann.call("createMatch", ["gameType": "501", "playerName": " "]).errorCode == "INVALID_INPUT")
                        let typed = try await ann.call("createMatch", ["gameType": 501, "playerName": "A"])
                        #expect(typed.errorCode == "BAD_REQUEST" && typed.errorMessage?.contains("gameType") == true)

                        let code = try await DartsWire.seat(ann, [bo], settings: ["capacity": 2])
                        // Codes.
                        let malformed = try await cy.call("joinMatch", ["code": "AB", "playerName": "Cy"])
                        #expect(malformed.errorCode == "INVALID_INPUT" && malformed.errorMessage == "Match code must be exactly 5 characters (got 2).")
                        #expect(try await cy.call("joinMatch", ["code": "K7Q2ZD", "playerName": "Cy"]).errorCode == "INVALID_INPUT")  // a room code
                        let missing = try await cy.call("getMatch", ["code": "AAAAA"])
                        #expect(missing.errorCode == "MATCH_NOT_FOUND" && missing.errorStatus == "not-found")
                        #expect(try await cy.call("observeMatch", ["code": "AAAAA"]).errorCode == "MATCH_NOT_FOUND")
                        // Seats.
                        let full = try await cy.call("joinMatch", ["code": code, "playerName": "Cy"])
                        #expect(full.errorCode == "MATCH_FULL" && full.errorStatus == "resource-exhausted")
                        #expect(full.errorMessage == "The match is full (2 of 2 players).")
                        #expect(try await ann.call("addGuest", ["code": code, "name": "Gil"]).errorCode == "MATCH_FULL")
                        let guest = try await bo.call("addGuest", ["code": code, "name": "Gil"])
                        #expect(guest.errorCode == "NOT_HOST" && guest.errorStatus == "permission-denied" && guest.errorMessage == "Only the host can add a guest.")
                        #expect(try await bo.call("startMatch", ["code": code]).errorCode == "NOT_HOST")
                        #expect(try await bo.call("removePlayer", ["code": code, "playerId": ann.userId!]).errorCode == "NOT_HOST")
                        let ghost = "00000000-0000-4000-8000-000000000000"
                        let nobody = try await ann.call("removePlayer", ["code": code, "playerId": ghost])
                        #expect(nobody.errorCode == "PLAYER_NOT_FOUND" && nobody.errorStatus == "not-found")
                        #expect(try await ann.call("removePlayer", ["code": code, "playerId": "not-a-uuid"]).errorCode == "BAD_REQUEST")
                        #expect(try await cy.call("leaveMatch", ["code": code]).errorCode == "PLAYER_NOT_FOUND")
                        // Visits before the start.
                        let early = try await DartsWire.visit(ann, code, player: ann.userId!, "T20 T20 T20")
                        #expect(early.errorCode == "INVALID_STATE" && early.errorStatus == "failed-precondition")
                        #expect(try await ann.call("editLastVisit", ["code": code, "total": 60]).errorCode == "INVALID_STATE")

                        _ = try await ann.call("startMatch", ["code": code])
                        #expect(try await ann.call("startMatch", ["code": code]).errorCode == "INVALID_STATE")
                        // Turns.
                        let turn = try await DartsWire.visit(bo, code, player: bo.userId!, "T20 T20 T20")
                        #expect(turn.errorCode == "NOT_YOUR_TURN" && turn.errorStatus == "failed-precondition" && turn.errorMessage == "It is Ann's turn to throw.")
                        #expect(try await DartsWire.visit(bo, code, player: ann.userId!, "T20 T20 T20").errorCode == "NOT_HOST")
                        #expect(try await DartsWire.visit(cy, code, player: ann.userId!, "T20 T20 T20").errorCode == "NOT_HOST")
                        #expect(try await DartsWire.visit(ann, code, player: ghost, "T20 T20 T20").errorCode == "PLAYER_NOT_FOUND")
                        // Darts.
                        let dart = try await DartsWire.visit(ann, code, player: ann.userId!, "T20 T21 T20")
                        #expect(dart.errorCode == "INVALID_DARTS" && dart.errorStatus == "invalid-argument")
                        #expect(dart.errorMessage?.hasPrefix("\"T21\" is not a dart") == true)
                        #expect(try await DartsWire.visit(ann, code, player: ann.userId!, "T20 T20").errorCode == "INVALID_DARTS")
                        #expect(try await ann.call("recordVisit", ["code": code, "playerId": ann.userId!, "total": 179]).errorMessage
                            == "179 cannot be scored with three darts.")
                        let both = try await ann.call("recordVisit", ["code": code, "playerId": ann.userId!, "total": 60, "darts": ["T20"]])
                        #expect(both.errorCode == "INVALID_INPUT")
                        #expect(try await ann.call("recordVisit", ["code": code, "playerId": ann.userId!, "darts": "T20"]).errorCode == "BAD_REQUEST")
                        _ = try await DartsWire.visit(ann, code, player: ann.userId!, "T20 T20 T20")
                        _ = try await bo.call("recordVisit", ["code": code, "playerId": bo.userId!, "total": 60])
                        let after = try await DartsWire.visit(ann, code, player: ann.userId!, "T20 T11 D14 M")
                        #expect(after.errorCode == "INVALID_DARTS")
                        let finishTotal = try await ann.call("recordVisit", ["code": code, "playerId": ann.userId!, "total": 121])
                        #expect(finishTotal.errorCode == "INVALID_DARTS" && finishTotal.errorMessage?.contains("must name its darts") == true)
                        // Edits.
                        #expect(try await ann.call("editLastVisit", ["code": code, "visit": 1, "total": 60]).errorCode == "INVALID_STATE")
                        let notYours = try await cy.call("editLastVisit", ["code": code, "total": 45])
                        #expect(notYours.errorCode == "NOT_HOST" && notYours.errorMessage == "Only the host can edit a visit someone else recorded.")
                        // History.
                        let forbidden = try await ann.call("listMatches", ["userId": bo.userId!])
                        #expect(forbidden.errorCode == "FORBIDDEN" && forbidden.errorStatus == "permission-denied")
                        #expect(try await ann.call("listMatches", ["before": "yesterday"]).errorCode == "INVALID_INPUT")
                        // After all that the connections work and the match is as the accepted visits left it.
                        let match = try #require(try await cy.call("getMatch", ["code": code]).result)
                        #expect(match["version"] as? Int == 5 && match["currentPlayerId"] as? String == ann.userId)
                        _ = try await DartsWire.visit(ann, code, player: ann.userId!, "T20 T11 D14")
                        let finished = try await DartsWire.visit(bo, code, player: bo.userId!, "T20 T20 T20")
                        #expect(finished.errorCode == "INVALID_STATE" && finished.errorMessage?.contains("finished") == true)
                        #expect(try await ann.call("editLastVisit", ["code": code, "total": 0]).errorMessage?.contains("finished and filed") == true)
                    }
                }
            }
        }
    }

    @Test func matchesHaveTheirOwnLimit() async throws {
        let games = [RummyModule(), WordLobbyModule(), DartsModule(maxMatches: 1)] as [any GameModule]
        try await withParlor(games: games) { parlor in
            try await parlor.connect { ann in
                _ = try await DartsWire.seat(ann)
                let refused = try await ann.call("createMatch", ["gameType": "501", "playerName": "Ann"])
                #expect(refused.errorCode == "NO_FREE_CODE" && refused.errorStatus == "resource-exhausted")
                // Rooms are not matches: their limit is another.
                #expect(try await ann.call("createRoom", ["pointLimit": 150, "pointValue": 5, "playerCount": 2, "playerName": "Ann"]).result != nil)
            }
        }
    }

    @Test func theLastOneOutDeletesTheMatchAndEndsItsStreams() async throws {
        try await withParlor { parlor in
            try await parlor.connect { ann in
                try await parlor.connect(signIn: false) { spectator in
                    let code = try await DartsWire.seat(ann)
                    let sub = try await DartsWire.observe(spectator, code)
                    _ = try await spectator.nextEvent(sub: sub)
                    #expect(try await ann.call("leaveMatch", ["code": code])["result"] is NSNull)
                    let last = try await spectator.nextEvent(sub: sub)
                    #expect(last["event"] as? String == "match" && last["data"] is NSNull)
                    #expect(try await spectator.nextEvent(sub: sub)["event"] as? String == "end")
                    #expect(try await spectator.call("getMatch", ["code": code]).errorCode == "MATCH_NOT_FOUND")
                }
            }
        }
    }
}
