import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// `POST /matches` and `POST /match_throws`: a match played offline, checked by the rules, stored once
/// per version with the later version winning, and listed with live matches in one history.
@Suite struct MatchUploadHTTPTests {
    @Test func anOfflineMatchWithAGuestIsFiledWithItsStatistics() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let ann = try await parlor.member("ann", "Ann")
            let id = Uploads.newID()
            let body = Uploads.match(
                id: id, players: [["player_id": ann.id, "order": 0], ["order": 1, "name": "Gil"]], winner: ann.id,
                updatedAt: "2026-10-10T20:21:00Z", turns: Uploads.leg(["player_id": ann.id], ["order": 1]))
            let (status, answer) = try await parlor.http("POST", "/matches", body: body, token: ann.token)
            #expect(status == 201, "\(String(describing: answer))")
            let result = try #require(answer as? [String: Any])
            #expect(result["result"] as? String == "created")
            let match = try #require(result["match"] as? [String: Any])
            #expect(match["id"] as? String == id && match["updated_at"] as? String == "2026-10-10T20:21:00.000Z")
            #expect(match["winner_id"] as? String == ann.id && (match["metadata"] as? [String: Any])?["code"] == nil)
            let players = try #require(match["players"] as? [[String: Any]])
            #expect(players[0]["name"] as? String == "Ann" && players[0]["is_winner"] as? Bool == true && players[0]["legs_won"] as? Int == 1)
            #expect(players[1]["player_id"] == nil && players[1]["name"] as? String == "Gil")
            let stats = try #require(players[0]["stats"] as? [String: Any])
            #expect(stats["three_dart_average"] as? Double == 150.5 && stats["highest_checkout"] as? Int == 121 && stats["darts_thrown"] as? Int == 6)

            // The same upload again changes nothing.
            let (againStatus, again) = try await parlor.http("POST", "/matches", body: body, token: ann.token)
            #expect(againStatus == 200 && (again as? [String: Any])?["result"] as? String == "unchanged")

            #expect(try await parlor.history(of: ann).map { $0["id"] as? String } == [id])
            let profile = try #require(try await parlor.http("GET", "/users/\(ann.id)", token: ann.token).1 as? [String: Any])
            let lifetime = try #require(profile["stats"] as? [String: Any])
            #expect(lifetime["played"] as? Int == 1 && lifetime["won"] as? Int == 1 && lifetime["three_dart_average"] as? Double == 150.5)
            #expect(lifetime["highest_checkout"] as? Int == 121)
        }
    }

    /// The seed's sync: the same match uploaded from two phones, in either order, ends as the version
    /// changed last, and each phone is told which version is stored.
    @Test(arguments: [false, true]) func twoDevicesEndWithTheLaterVersion(laterFirst: Bool) async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let ann = try await parlor.member("ann", "Ann")
            let bo = try await parlor.member("bobo", "Bo")
            try await parlor.friends(ann, bo)
            let id = Uploads.newID()
            let players: [[String: Any]] = [["player_id": ann.id, "order": 0], ["player_id": bo.id, "order": 1]]
            // Ann's phone ended the match at 20:20; Bo's phone corrected the last visit's darts a minute later.
            let annPhone = Uploads.match(
                id: id, players: players, winner: ann.id, updatedAt: "2026-10-10T20:20:30Z",
                turns: Uploads.leg(["player_id": ann.id], ["player_id": bo.id]))
            let boPhone = Uploads.match(
                id: id, players: players, winner: ann.id, updatedAt: "2026-10-10T20:21:30Z", endedAt: "2026-10-10T20:21:00Z",
                duration: 1260, turns: Uploads.leg(["player_id": ann.id], ["player_id": bo.id], finish: ["T20", "T19", "D2"]))
            let uploads = laterFirst ? [(bo, boPhone), (ann, annPhone)] : [(ann, annPhone), (bo, boPhone)]

            let (firstStatus, first) = try await parlor.http("POST", "/matches", body: uploads[0].1, token: uploads[0].0.token)
            #expect(firstStatus == 201 && (first as? [String: Any])?["result"] as? String == "created")
            let (secondStatus, second) = try await parlor.http("POST", "/matches", body: uploads[1].1, token: uploads[1].0.token)
            #expect(secondStatus == 200)
            let answer = try #require(second as? [String: Any])
            #expect(answer["result"] as? String == (laterFirst ? "ignored" : "updated"))
            // Either way, the answer carries the stored version: Bo's.
            let stored = try #require(answer["match"] as? [String: Any])
            #expect(stored["updated_at"] as? String == "2026-10-10T20:21:30.000Z" && stored["ended_at"] as? String == "2026-10-10T20:21:00.000Z")

            for user in [ann, bo] {
                let history = try await parlor.history(of: user)
                #expect(history.count == 1 && history[0]["updated_at"] as? String == "2026-10-10T20:21:30.000Z")
                #expect((history[0]["metadata"] as? [String: Any])?["duration_seconds"] as? Int == 1260)
            }
            // Uploading either again changes nothing.
            for (user, body) in uploads {
                let (_, again) = try await parlor.http("POST", "/matches", body: body, token: user.token)
                #expect(["unchanged", "ignored"].contains((again as? [String: Any])?["result"] as? String))
                #expect(((again as? [String: Any])?["match"] as? [String: Any])?["updated_at"] as? String == "2026-10-10T20:21:30.000Z")
            }
        }
    }

    @Test func turnsUploadedAfterTheMatchAreReplayedAndCounted() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let ann = try await parlor.member("ann", "Ann")
            let bo = try await parlor.member("bobo", "Bo")
            try await parlor.friends(ann, bo)
            let id = Uploads.newID()
            let body = Uploads.match(
                id: id, players: [["player_id": ann.id, "order": 0], ["player_id": bo.id, "order": 1]], winner: ann.id,
                updatedAt: "2026-10-10T20:21:00Z")
            let (status, created) = try await parlor.http("POST", "/matches", body: body, token: ann.token)
            #expect(status == 201)
            let bare = try #require(((created as? [String: Any])?["match"] as? [String: Any])?["players"] as? [[String: Any]])
            #expect(bare[0]["is_winner"] as? Bool == true && bare[0]["stats"] == nil && bare[0]["legs_won"] == nil)

            let turns = Uploads.leg(["player_id": ann.id], ["player_id": bo.id]).map { $0.merging(["match_id": id]) { a, _ in a } }
            let (turnStatus, counted) = try await RawHTTP.send(
                port: parlor.port, method: "POST", path: "/match_throws", body: try JSONSerialization.data(withJSONObject: turns), token: bo.token)
            #expect(turnStatus == 200, "\(String(describing: counted))")
            #expect((counted as? [String: Any])?["result"] as? String == "updated")
            let players = try #require(((counted as? [String: Any])?["match"] as? [String: Any])?["players"] as? [[String: Any]])
            #expect((players[1]["stats"] as? [String: Any])?["three_dart_average"] as? Double == 100 && players[0]["legs_won"] as? Int == 1)
            let again = try await RawHTTP.send(
                port: parlor.port, method: "POST", path: "/match_throws", body: try JSONSerialization.data(withJSONObject: turns), token: ann.token)
            #expect((again.1 as? [String: Any])?["result"] as? String == "unchanged")

            let boStats = try #require((try await parlor.http("GET", "/users/\(bo.id)", token: ann.token).1 as? [String: Any])?["stats"] as? [String: Any])
            #expect(boStats["played"] as? Int == 1 && boStats["won"] as? Int == 0 && boStats["three_dart_average"] as? Double == 100)
        }
    }

    @Test func impossibleTurnsAreRefusedNamingTheFirstBadOne() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let ann = try await parlor.member("ann", "Ann")
            let players: [[String: Any]] = [["player_id": ann.id, "order": 0], ["order": 1, "name": "Gil"]]
            func refusal(_ turns: [[String: Any]], guestWon: Bool = false) async throws -> (Int, String?, String?) {
                let body = Uploads.match(
                    id: Uploads.newID(), players: players, winner: guestWon ? nil : ann.id, updatedAt: "2026-10-10T20:21:00Z", turns: turns)
                let (status, answer) = try await parlor.http("POST", "/matches", body: body, token: ann.token)
                let error = (answer as? [String: Any])?["error"] as? [String: Any]
                return (status, error?["code"] as? String, error?["message"] as? String)
            }
            var turns = Uploads.leg(["player_id": ann.id], ["order": 1])
            turns[1]["score"] = 179
            #expect(try await refusal(turns) == (422, "INVALID_THROWS", "Leg 1, turn 2: 179 cannot be scored with three darts."))
            turns = Uploads.leg(["player_id": ann.id], ["order": 1], finish: ["T20", "T11", "D13"])
            turns[2]["remaining"] = 2
            let unfinished = try await refusal(turns)
            #expect(unfinished.0 == 422 && unfinished.2?.hasPrefix("Leg 1, turn 3: leg 1 does not end at zero") == true)
            turns = Uploads.leg(["player_id": ann.id], ["order": 1])
            turns[0]["remaining"] = 120
            #expect(try await refusal(turns).2 == "Leg 1, turn 1: the darts leave 121, not 120.")
            turns = Uploads.leg(["player_id": ann.id], ["order": 1])
            turns[1]["order"] = 0
            #expect(try await refusal(turns).2 == "Leg 1, turn 2: it was Gil's turn to throw.")
            turns[1]["order"] = 7
            #expect(try await refusal(turns).2 == "Leg 1, turn 2: no player sits at order 7.")
            // The darts say Ann won; winner_id null says a guest did.
            #expect(try await refusal(Uploads.leg(["player_id": ann.id], ["order": 1]), guestWon: true)
                == (422, "INVALID_THROWS", "The turns make Ann the winner, but winner_id says otherwise."))
        }
    }

    @Test func everyRefusalOfAnUpload() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let ann = try await parlor.member("ann", "Ann")
            let bo = try await parlor.member("bobo", "Bo")
            let cy = try await parlor.member("cyril", "Cy")
            try await parlor.friends(ann, cy)
            let solo: [[String: Any]] = [["player_id": ann.id, "order": 0]]
            func status(_ body: [String: Any], as user: AppUser) async throws -> (Int, String?) {
                let (status, answer) = try await parlor.http("POST", "/matches", body: body, token: user.token)
                return (status, errorCode(answer))
            }
            let good = Uploads.match(id: Uploads.newID(), players: solo, winner: ann.id, updatedAt: "2026-10-10T20:21:00Z")
            #expect(try await status(good, as: bo) == (403, "FORBIDDEN"), "not a player")
            let withStranger = Uploads.match(
                id: Uploads.newID(), players: solo + [["player_id": bo.id, "order": 1]], winner: ann.id, updatedAt: "2026-10-10T20:21:00Z")
            #expect(try await status(withStranger, as: ann) == (403, "FORBIDDEN"), "Bo is not Ann's friend")
            #expect(try await parlor.http("POST", "/matches", body: good).0 == 401)

            for (change, why) in [
                (["game_type": "401"], "game type"), (["id": "m-1"], "id"), (["started_at": "yesterday"], "time"),
                (["ended_at": "2026-10-10T19:00:00Z"], "ends before it starts"), (["updated_at": "2999-01-01T00:00:00Z"], "future"),
                (["winner_id": cy.id], "winner not a player"), (["players": [["player_id": ann.id, "order": 1]]], "orders"),
                (["players": [["player_id": ann.id, "order": 0], ["order": 1]]], "a guest without a name"), (["metadata": ["duration_seconds": -1]], "duration"),
                (["metadata": ["duration_seconds": 1, "legs": 16]], "legs"), (["metadata": ["duration_seconds": 1, "out_rule": "triple"]], "rule"),
                (["players": [["player_id": ann.id, "order": 0]] + (1..<9).map { ["order": $0, "name": "G\($0)"] }], "nine players"),
            ] as [([String: Any], String)] {
                let body = good.merging(change) { _, new in new }
                #expect(try await status(body, as: ann) == (400, "INVALID_INPUT"), "\(why)")
            }
            var noName = good
            noName["players"] = solo + [["player_id": cy.id, "order": 1, "name": ""]]
            #expect(try await status(noName, as: ann) == (400, "INVALID_INPUT"))
            var badType = good
            badType["players"] = "Ann"
            #expect(try await status(badType, as: ann) == (400, "BAD_REQUEST"))

            // An id that is someone else's match cannot be taken over.
            #expect(try await status(good, as: ann).0 == 201)
            var takeover = good
            takeover["players"] = [["player_id": bo.id, "order": 0]]
            takeover["winner_id"] = bo.id
            takeover["updated_at"] = "2026-10-10T21:00:00Z"
            #expect(try await status(takeover, as: bo) == (403, "FORBIDDEN"))
        }
    }

    @Test func everyRefusalOfTurns() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let ann = try await parlor.member("ann", "Ann")
            let bo = try await parlor.member("bobo", "Bo")
            let id = Uploads.newID()
            let body = Uploads.match(
                id: id, players: [["player_id": ann.id, "order": 0], ["order": 1, "name": "Gil"]], winner: ann.id,
                updatedAt: "2026-10-10T20:21:00Z")
            #expect(try await parlor.http("POST", "/matches", body: body, token: ann.token).0 == 201)
            let turns = Uploads.leg(["player_id": ann.id], ["order": 1]).map { $0.merging(["match_id": id]) { a, _ in a } }
            func post(_ turns: [[String: Any]], _ user: AppUser?) async throws -> (Int, String?) {
                let (status, answer) = try await RawHTTP.send(
                    port: parlor.port, method: "POST", path: "/match_throws", body: try JSONSerialization.data(withJSONObject: turns),
                    token: user?.token)
                return (status, errorCode(answer))
            }
            #expect(try await post([], ann) == (400, "INVALID_INPUT"))
            let elsewhere = Uploads.newID()
            #expect(try await post(turns.map { $0.merging(["match_id": elsewhere]) { _, new in new } }, ann) == (404, "MATCH_NOT_FOUND"))
            var mixed = turns
            mixed[1]["match_id"] = Uploads.newID()
            #expect(try await post(mixed, ann) == (400, "INVALID_INPUT"))
            #expect(try await post(turns, bo) == (403, "FORBIDDEN"))
            #expect(try await post(turns, nil) == (401, "UNAUTHENTICATED"))
            var wrong = turns
            wrong[2]["darts"] = ["T20", "T11", "D15"]
            #expect(try await post(wrong, ann) == (422, "INVALID_THROWS"))
            var nobody = turns
            nobody[1]["order"] = NSNull()
            #expect(try await post(nobody, ann) == (422, "INVALID_THROWS"))
            #expect(try await post(turns, ann) == (200, nil))
        }
    }

    @Test func historyPagesLiveAndUploadedMatchesNewestFirst() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let ann = try await parlor.member("ann", "Ann")
            for (hour, minute) in [(18, 0), (20, 0), (19, 0)] {
                let body = Uploads.match(
                    id: Uploads.newID(), players: [["player_id": ann.id, "order": 0]], winner: ann.id, updatedAt: "2026-10-10T23:00:00Z",
                    startedAt: "2026-10-10T17:00:00Z", endedAt: String(format: "2026-10-10T%02d:%02d:00Z", hour, minute))
                #expect(try await parlor.http("POST", "/matches", body: body, token: ann.token).0 == 201)
            }
            // A live match, finished now (after all of them).
            try await parlor.connect(signIn: false) { socket in
                try await socket.hello(token: ann.token)
                let created = try await socket.call("createMatch", ["gameType": "301", "playerName": "Ann"])
                let code = try #require((created.result?["match"] as? [String: Any])?["id"] as? String)
                _ = try await socket.call("startMatch", ["code": code])
                for darts in [["T20", "T20", "T20"], ["T20", "T11", "D14"]] {
                    #expect(try await socket.call("recordVisit", ["code": code, "playerId": ann.id, "darts": darts]).result != nil)
                }
                // The WebSocket's listMatches serves the same history.
                let listed = try #require(try await socket.call("listMatches", ["limit": 2]).result?["matches"] as? [[String: Any]])
                #expect(listed.count == 2 && (listed[0]["metadata"] as? [String: Any])?["code"] as? String == code)
            }
            let all = try await parlor.history(of: ann)
            #expect(all.count == 4 && all[0]["updated_at"] == nil)
            // One shape: a live match has the fields of an uploaded one but its version, and its players' statistics.
            #expect(Set(all[0].keys) == Set(all[1].keys).subtracting(["updated_at"]))
            let livePlayer = try #require((all[0]["players"] as? [[String: Any]])?.first)
            #expect(Set(livePlayer.keys).isSuperset(of: try #require((all[1]["players"] as? [[String: Any]])?.first).keys))
            #expect((livePlayer["stats"] as? [String: Any])?["three_dart_average"] as? Double == 150.5 && livePlayer["legs_won"] as? Int == 1)
            #expect(all.dropFirst().map { $0["ended_at"] as? String } == [
                "2026-10-10T20:00:00.000Z", "2026-10-10T19:00:00.000Z", "2026-10-10T18:00:00.000Z",
            ])
            let (_, page) = try await parlor.http("GET", "/matches?user_id=\(ann.id)&limit=2", token: ann.token)
            let next = try #require((page as? [String: Any])?["nextBefore"] as? String)
            let rest = try await parlor.history(of: ann, query: "&before=\(next)&limit=2")
            #expect(rest.map { $0["ended_at"] as? String } == ["2026-10-10T19:00:00.000Z", "2026-10-10T18:00:00.000Z"])
            let stats = try #require((try await parlor.http("GET", "/users/\(ann.id)", token: ann.token).1 as? [String: Any])?["stats"] as? [String: Any])
            #expect(stats["played"] as? Int == 4 && stats["won"] as? Int == 4 && stats["highest_checkout"] as? Int == 121)

            let bo = try await parlor.signUp()
            let theirs = try await parlor.http("GET", "/matches?user_id=\(ann.id)", token: bo.token)
            #expect(theirs.0 == 403 && errorCode(theirs.1) == "FORBIDDEN")
            let badLimit = try await parlor.http("GET", "/matches?limit=lots", token: ann.token)
            #expect(badLimit.0 == 400 && errorCode(badLimit.1) == "INVALID_INPUT")
            #expect(try await parlor.http("GET", "/matches?before=yesterday", token: ann.token).0 == 400)
            #expect(try await parlor.http("GET", "/matches").0 == 401)
            #expect((try await parlor.history(of: bo)).isEmpty)
        }
    }
}
