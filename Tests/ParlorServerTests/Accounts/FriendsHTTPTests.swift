import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// `friends` over HTTP: asking, answering, unfriending and listing, with every error status.
@Suite struct FriendsHTTPTests {
    @Test func aRequestIsAnsweredByTheOneAskedAndListedOnBothSides() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let ann = try await parlor.member("ann", "Ann")
            let bo = try await parlor.member("bobo", "Bo")
            let (status, asked) = try await parlor.http("POST", "/friends", body: ["addressee_id": bo.id], token: ann.token)
            #expect(status == 201)
            let request = try #require(asked as? [String: Any])
            let id = try #require(request["id"] as? String)
            #expect(request["requester_id"] as? String == ann.id && request["addressee_id"] as? String == bo.id)
            #expect(request["status"] as? String == "pending" && request["created_at"] is String && request["presence"] == nil)
            #expect((request["friend"] as? [String: Any])?["handle"] as? String == "bobo")

            // Pending requests show both ways.
            let boList = try #require(try await parlor.http("GET", "/friends?user_id=\(bo.id)", token: bo.token).1 as? [[String: Any]])
            #expect(boList.map { $0["id"] as? String } == [id] && (boList[0]["friend"] as? [String: Any])?["handle"] as? String == "ann")
            let annList = try #require(try await parlor.http("GET", "/friends", token: ann.token).1 as? [[String: Any]])
            #expect(annList.map { $0["status"] as? String } == ["pending"])

            let byRequester = try await parlor.http("PUT", "/friends/\(id)", body: ["status": "accepted"], token: ann.token)
            #expect(byRequester.0 == 403 && errorCode(byRequester.1) == "FORBIDDEN")
            let (acceptStatus, accepted) = try await parlor.http("PUT", "/friends/\(id)", body: ["status": "accepted"], token: bo.token)
            #expect(acceptStatus == 200 && (accepted as? [String: Any])?["status"] as? String == "accepted")
            let presence = try #require((accepted as? [String: Any])?["presence"] as? [String: Any])
            #expect(presence["online"] as? Bool == false && presence["playing"] is NSNull)
            // Accepting again is the same answer; changing one's mind needs DELETE.
            #expect(try await parlor.http("PUT", "/friends/\(id)", body: ["status": "accepted"], token: bo.token).0 == 200)
            let undo = try await parlor.http("PUT", "/friends/\(id)", body: ["status": "rejected"], token: bo.token)
            #expect(undo.0 == 409 && errorCode(undo.1) == "INVALID_STATE")

            // Either side unfriends.
            #expect(try await parlor.http("DELETE", "/friends/\(id)", token: ann.token).0 == 204)
            let gone = try await parlor.http("DELETE", "/friends/\(id)", token: bo.token)
            #expect(gone.0 == 404 && errorCode(gone.1) == "FRIENDSHIP_NOT_FOUND")
            #expect((try await parlor.http("GET", "/friends", token: bo.token).1 as? [Any])?.isEmpty == true)
        }
    }

    @Test func aRejectedRequestDisappearsAndCannotBeSentAgain() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let ann = try await parlor.member("ann", "Ann")
            let bo = try await parlor.member("bobo", "Bo")
            let id = try #require((try await parlor.http("POST", "/friends", body: ["addressee_id": bo.id], token: ann.token).1
                as? [String: Any])?["id"] as? String)
            let (status, rejected) = try await parlor.http("PUT", "/friends/\(id)", body: ["status": "rejected"], token: bo.token)
            #expect(status == 200 && (rejected as? [String: Any])?["status"] as? String == "rejected")
            #expect((rejected as? [String: Any])?["presence"] == nil)
            #expect((try await parlor.http("GET", "/friends", token: ann.token).1 as? [Any])?.isEmpty == true)
            for (from, to) in [(ann, bo), (bo, ann)] {
                let again = try await parlor.http("POST", "/friends", body: ["addressee_id": to.id], token: from.token)
                #expect(again.0 == 409 && errorCode(again.1) == "FRIEND_REQUEST_EXISTS")
            }
            // The one who asked can still withdraw it, and ask again later.
            #expect(try await parlor.http("DELETE", "/friends/\(id)", token: ann.token).0 == 204)
            #expect(try await parlor.http("POST", "/friends", body: ["addressee_id": bo.id], token: ann.token).0 == 201)
        }
    }

    @Test func everyRefusal() async throws {
        try await withParlor(configure: { accountLimits(&$0); $0.limits.maxFriendships = 2 }) { parlor in
            let ann = try await parlor.member("ann", "Ann")
            let bo = try await parlor.member("bobo", "Bo")
            let cy = try await parlor.member("cyril", "Cy")
            let di = try await parlor.member("diana", "Di")
            let nobody = try await parlor.signUp()

            let selfRequest = try await parlor.http("POST", "/friends", body: ["addressee_id": ann.id], token: ann.token)
            #expect(selfRequest.0 == 400 && errorCode(selfRequest.1) == "INVALID_INPUT")
            let toNobody = try await parlor.http("POST", "/friends", body: ["addressee_id": nobody.id], token: ann.token)
            #expect(toNobody.0 == 404 && errorCode(toNobody.1) == "PROFILE_NOT_FOUND")
            let fromNobody = try await parlor.http("POST", "/friends", body: ["addressee_id": ann.id], token: nobody.token)
            #expect(fromNobody.0 == 404 && errorCode(fromNobody.1) == "PROFILE_NOT_FOUND")
            let notAnID = try await parlor.http("POST", "/friends", body: ["addressee_id": "bo"], token: ann.token)
            #expect(notAnID.0 == 400 && errorCode(notAnID.1) == "BAD_REQUEST")
            #expect(try await parlor.http("POST", "/friends", body: ["addressee_id": bo.id]).0 == 401)

            let id = try #require((try await parlor.http("POST", "/friends", body: ["addressee_id": bo.id], token: ann.token).1
                as? [String: Any])?["id"] as? String)
            let reverse = try await parlor.http("POST", "/friends", body: ["addressee_id": ann.id], token: bo.token)
            #expect(reverse.0 == 409 && errorCode(reverse.1) == "FRIEND_REQUEST_EXISTS")
            let badStatus = try await parlor.http("PUT", "/friends/\(id)", body: ["status": "pending"], token: bo.token)
            #expect(badStatus.0 == 400 && errorCode(badStatus.1) == "INVALID_INPUT")
            let notTheirs = try await parlor.http("PUT", "/friends/\(id)", body: ["status": "accepted"], token: cy.token)
            #expect(notTheirs.0 == 404 && errorCode(notTheirs.1) == "FRIENDSHIP_NOT_FOUND")
            #expect(try await parlor.http("PUT", "/friends/nope", body: ["status": "accepted"], token: bo.token).0 == 404)
            #expect(try await parlor.http("DELETE", "/friends/\(id)", token: cy.token).0 == 404)
            for (method, path) in [("PUT", "/friends/\(id)"), ("DELETE", "/friends/\(id)"), ("GET", "/friends")] {
                let anonymous = try await parlor.http(method, path, body: method == "PUT" ? ["status": "accepted"] : nil)
                #expect(anonymous.0 == 401 && errorCode(anonymous.1) == "UNAUTHENTICATED", "\(method) \(path)")
            }

            let othersList = try await parlor.http("GET", "/friends?user_id=\(bo.id)", token: ann.token)
            #expect(othersList.0 == 403 && errorCode(othersList.1) == "FORBIDDEN")
            let badList = try await parlor.http("GET", "/friends?user_id=bo", token: ann.token)
            #expect(badList.0 == 400 && errorCode(badList.1) == "INVALID_INPUT")

            // Two requests each at most (--max-friends 2): Ann has Bo and now Cy; Di cannot ask her.
            #expect(try await parlor.http("POST", "/friends", body: ["addressee_id": cy.id], token: ann.token).0 == 201)
            let mine = try await parlor.http("POST", "/friends", body: ["addressee_id": di.id], token: ann.token)
            #expect(mine.0 == 429 && errorCode(mine.1) == "TOO_MANY_FRIENDS")
            let theirs = try await parlor.http("POST", "/friends", body: ["addressee_id": ann.id], token: di.token)
            #expect(theirs.0 == 429 && errorCode(theirs.1) == "TOO_MANY_FRIENDS")
            #expect((theirs.1 as? [String: Any]).flatMap { ($0["error"] as? [String: Any])?["message"] as? String }?.contains("Ann") == true)
        }
    }
}
