import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// A finished game's record (`getGameRecord`, `GET /games/{code}/record` and its exports) is refused to
/// whom the game, live, would have refused: a private game's to everyone but its players, a game whose
/// spectators were refused or limited to accounts alike — over real sockets, in every kind of store.
@Suite struct GameRecordAccessTests {
    /// Ann and Bo play a tic-tac-toe game created with `access` to Ann's win; Bo joins with an
    /// invitation when it is private. Returns its code.
    static func finishedGame(_ ann: JSONConnection, _ bo: JSONConnection, access: [String: Any]) async throws -> String {
        let created = try await ann.call("createTicTacToe", ["playerName": "Ann"].merging(access) { $1 })
        let code = try #require((created.result?["ticTacToe"] as? [String: Any])?["code"] as? String, "\(created)")
        var join: [String: Any] = ["code": code, "playerName": "Bo"]
        if access["private"] as? Bool == true {
            join["invite"] = try #require(try await ann.call("createInvite", ["code": code]).result?["invite"] as? String)
        }
        let joined = try await bo.call("joinTicTacToe", join)
        #expect(joined.result != nil, "\(joined)")
        for (player, cell) in [(ann, 0), (bo, 4), (ann, 1), (bo, 5), (ann, 2)] {
            let placed = try await player.call("placeMark", ["code": code, "cell": cell])
            #expect(placed.result != nil, "\(placed)")
        }
        return code
    }

    @Test(arguments: DurableStore.available)
    func aPrivateGamesRecordIsItsPlayersAlone(_ durable: DurableStore) async throws {
        try await durable.withPlace { place in
            let store = try await place.open()
            try await withParlor(store: store, configure: AccessKind.configure) { parlor in
                try await parlor.connect { ann in
                    try await parlor.connect { bo in
                        try await parlor.connect { stranger in
                            let code = try await Self.finishedGame(ann, bo, access: ["private": true])
                            let open = try await Self.finishedGame(ann, bo, access: [:])

                            for player in [ann, bo] {
                                let record = try await player.call("getGameRecord", ["code": code])
                                #expect(record.result?["stepCount"] as? Int == 6, "\(record)")
                            }
                            let refused = try await stranger.call("getGameRecord", ["code": code])
                            #expect(refused.errorCode == "NOT_INVITED" && refused.errorStatus == "permission-denied", "\(refused)")
                            #expect(refused.errorMessage?.contains("private") == true, "\(refused)")
                            // An open game's record is anyone's, as before.
                            #expect(try await stranger.call("getGameRecord", ["code": open]).result?["stepCount"] as? Int == 6)

                            // Over HTTP, the record and its exports alike.
                            let (status, body) = try await parlor.http("GET", "/games/\(code)/record", token: stranger.token)
                            #expect(status == 403 && errorCode(body) == "NOT_INVITED", "\(String(describing: body))")
                            let csv = try await parlor.http("GET", "/games/\(code)/record.csv", token: stranger.token)
                            #expect(csv.0 == 403 && errorCode(csv.1) == "NOT_INVITED", "\(String(describing: csv.1))")
                            #expect(try await parlor.http("GET", "/games/\(code)/record", token: bo.token).0 == 200)
                            #expect(try await parlor.http("GET", "/games/\(open)/record", token: stranger.token).0 == 200)
                        }
                    }
                }
            }
            await store.close()
        }
    }

    @Test func aGameWithoutSpectatorsOrForAccountsRefusesItsRecordAlike() async throws {
        let sub = UUID().uuidString.lowercased()
        let keys = try await TestIssuer.make([.init("secret", "HS256", claims: AccountSignInTests.supabaseClaims(sub: sub))])
        try await withParlor(configure: AccessKind.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    try await parlor.connect { stranger in
                        let closed = try await Self.finishedGame(ann, bo, access: ["spectators": "none"])
                        let accounts = try await Self.finishedGame(ann, bo, access: ["spectators": "signedIn"])

                        #expect(try await bo.call("getGameRecord", ["code": closed]).result != nil)
                        let refused = try await stranger.call("getGameRecord", ["code": closed])
                        #expect(refused.errorCode == "SPECTATORS_NOT_ALLOWED" && refused.errorStatus == "permission-denied", "\(refused)")
                        let anonymous = try await stranger.call("getGameRecord", ["code": accounts])
                        #expect(anonymous.errorCode == "SPECTATORS_NOT_ALLOWED", "\(anonymous)")
                        let (status, body) = try await parlor.http("GET", "/games/\(accounts)/record", token: stranger.token)
                        #expect(status == 403 && errorCode(body) == "SPECTATORS_NOT_ALLOWED", "\(String(describing: body))")

                        try await parlor.connect(signIn: false) { member in
                            #expect(try await member.call("hello", ["jwt": keys.tokens[0]]).result?["userId"] != nil)
                            let read = try await member.call("getGameRecord", ["code": accounts])
                            #expect(read.result?["stepCount"] as? Int == 6, "\(read)")
                            #expect(try await member.call("getGameRecord", ["code": closed]).errorCode == "SPECTATORS_NOT_ALLOWED")
                        }
                    }
                }
            }
        }
    }
}
