import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// The refusals of `POST /matches` and `POST /match_throws` that are not about the match itself: a
/// body over the uploads' limit, an upload that keeps losing a race for its id, a store that cannot
/// write. Each leaves the stored version as it was.
@Suite struct MatchUploadFailureTests {
    @Test func aBodyOverTheUploadLimitIsRefusedBeforeItIsRead() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let ann = try await parlor.member("ann", "Ann")
            for path in ["/matches", "/match_throws"] {
                let refused = try await RawHTTP.exchange(
                    port: parlor.port, method: "POST", path: path, token: ann.token, declaredLength: DartsUploads.maxBodySize + 1)
                #expect(refused.status == 413, "\(path)")
                #expect(refused.text.contains("Request body over \(DartsUploads.maxBodySize) bytes"), "\(path)")
            }
            // Past REST's usual 64 KiB, a long match is read (and this one refused for having too many turns).
            let turns = (1...(DartsUploads.maxTurns + 1)).map { ["order": 0, "leg": 1, "turn": $0, "score": 0] as [String: Any] }
            let match = Uploads.match(
                id: Uploads.newID(), players: [["player_id": ann.id, "order": 0]], winner: ann.id, updatedAt: "2026-10-10T20:21:00Z", turns: turns)
            let body = try JSONSerialization.data(withJSONObject: match)
            #expect(body.count > HTTPRoute.defaultMaxBodySize && body.count <= DartsUploads.maxBodySize)
            let (status, answer) = try await RawHTTP.send(port: parlor.port, method: "POST", path: "/matches", body: body, token: ann.token)
            #expect(status == 400 && errorCode(answer) == "INVALID_INPUT", "\(String(describing: answer))")
            #expect(((answer as? [String: Any])?["error"] as? [String: Any])?["message"] as? String == "A match has at most \(DartsUploads.maxTurns) turns.")
        }
    }

    @Test func turnsThatAreNotAListAreABadRequest() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let ann = try await parlor.member("ann", "Ann")
            let (status, answer) = try await parlor.http("POST", "/match_throws", body: ["match_id": Uploads.newID()], token: ann.token)
            #expect(status == 400 && errorCode(answer) == "BAD_REQUEST")
            let (matchStatus, match) = try await RawHTTP.send(
                port: parlor.port, method: "POST", path: "/matches", body: Data("[1, 2]".utf8), token: ann.token)
            #expect(matchStatus == 400 && errorCode(match) == "BAD_REQUEST")
        }
    }

    /// Another upload of the same id wins every time this one is about to be written: after a few
    /// tries the caller is told to upload again (409), and nothing is half-written.
    @Test func anUploadThatKeepsLosingTheRaceForItsIdIsAConflict() async throws {
        let store = FailingStore()
        try await withParlor(store: store, configure: accountLimits) { parlor in
            let ann = try await parlor.member("ann", "Ann")
            let players: [[String: Any]] = [["player_id": ann.id, "order": 0], ["order": 1, "name": "Gil"]]
            let id = Uploads.newID()
            let first = Uploads.match(id: id, players: players, winner: ann.id, updatedAt: "2026-10-10T20:21:00Z")
            #expect(try await parlor.http("POST", "/matches", body: first, token: ann.token).0 == 201)

            store.uploadFault = .alwaysRaced
            let fresh = Uploads.match(id: Uploads.newID(), players: players, winner: ann.id, updatedAt: "2026-10-10T20:21:00Z")
            let (status, answer) = try await parlor.http("POST", "/matches", body: fresh, token: ann.token)
            #expect(status == 409 && errorCode(answer) == "INVALID_STATE", "\(String(describing: answer))")
            var later = first
            later["updated_at"] = "2026-10-10T20:30:00Z"
            #expect(try await parlor.http("POST", "/matches", body: later, token: ann.token).0 == 409)
            let turns = Uploads.leg(["player_id": ann.id], ["order": 1]).map { $0.merging(["match_id": id]) { a, _ in a } }
            let (turnStatus, turnAnswer) = try await RawHTTP.send(
                port: parlor.port, method: "POST", path: "/match_throws", body: try JSONSerialization.data(withJSONObject: turns), token: ann.token)
            #expect(turnStatus == 409 && errorCode(turnAnswer) == "INVALID_STATE")

            store.uploadFault = nil
            let history = try await parlor.history(of: ann)
            #expect(history.map { $0["id"] as? String } == [id] && history[0]["updated_at"] as? String == "2026-10-10T20:21:00.000Z")
            #expect((history[0]["players"] as? [[String: Any]])?.first?["stats"] == nil)
        }
    }

    @Test func aStoreThatCannotWriteIsAnInternalErrorAndNothingIsFiled() async throws {
        let store = FailingStore()
        try await withParlor(store: store, configure: accountLimits) { parlor in
            let ann = try await parlor.member("ann", "Ann")
            store.uploadFault = .diskFull
            let body = Uploads.match(
                id: Uploads.newID(), players: [["player_id": ann.id, "order": 0]], winner: ann.id, updatedAt: "2026-10-10T20:21:00Z")
            let (status, answer) = try await parlor.http("POST", "/matches", body: body, token: ann.token)
            #expect(status == 500 && errorCode(answer) == "INTERNAL")
            let message = ((answer as? [String: Any])?["error"] as? [String: Any])?["message"] as? String
            #expect(message?.contains("nothing was changed") == true)

            store.uploadFault = nil
            #expect(try await parlor.history(of: ann).isEmpty)
            #expect(try await parlor.http("POST", "/matches", body: body, token: ann.token).0 == 201)
        }
    }
}
