import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// `users` over HTTP: one profile per user, a unique handle, changes to your own only, anyone's by id,
/// and search — with every error status a client can cause.
@Suite struct ProfileHTTPTests {
    @Test func aProfileIsCreatedOnceAndReadByAnyone() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let ann = try await parlor.signUp()
            let (status, created) = try await parlor.http(
                "POST", "/users", body: ["display_name": "  Ann Smith ", "handle": "Ann_99", "nickname": "Annie"], token: ann.token)
            #expect(status == 201)
            let profile = try #require(created as? [String: Any])
            #expect(profile["id"] as? String == ann.id && profile["handle"] as? String == "ann_99")
            #expect(profile["display_name"] as? String == "Ann Smith" && profile["nickname"] as? String == "Annie")
            #expect(profile["avatar_url"] is NSNull && profile["created_at"] as? String == profile["updated_at"] as? String)
            let stats = try #require(profile["stats"] as? [String: Any])
            #expect(stats["played"] as? Int == 0 && stats["won"] as? Int == 0 && stats["three_dart_average"] as? Double == 0)
            #expect(stats["highest_checkout"] as? Int == 0)

            let bo = try await parlor.signUp()
            let (readStatus, read) = try await parlor.http("GET", "/users/\(ann.id)", token: bo.token)
            #expect(readStatus == 200 && (read as? [String: Any])?["handle"] as? String == "ann_99")

            // One profile per user; handles unique ignoring case.
            let again = try await parlor.http("POST", "/users", body: ["display_name": "Ann", "handle": "ann2"], token: ann.token)
            #expect(again.0 == 409 && errorCode(again.1) == "PROFILE_EXISTS")
            let taken = try await parlor.http("POST", "/users", body: ["display_name": "Bo", "handle": "ANN_99"], token: bo.token)
            #expect(taken.0 == 409 && errorCode(taken.1) == "HANDLE_TAKEN")
        }
    }

    @Test func everyFieldIsCheckedByName() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let bo = try await parlor.signUp()
            for (body, field) in [
                (["display_name": "Bo", "handle": "bo"], "handle"),
                (["display_name": "Bo", "handle": String(repeating: "b", count: 21)], "handle"),
                (["display_name": "Bo", "handle": "bo-bo"], "handle"),
                (["display_name": "Bo", "handle": "böb"], "handle"),
                (["display_name": "   ", "handle": "bobo"], "display_name"),
                (["display_name": String(repeating: "B", count: 51), "handle": "bobo"], "display_name"),
                (["display_name": "Bo", "handle": "bobo", "nickname": String(repeating: "n", count: 51)], "nickname"),
            ] {
                let (status, answer) = try await parlor.http("POST", "/users", body: body, token: bo.token)
                let error = (answer as? [String: Any])?["error"] as? [String: Any]
                #expect(status == 400 && error?["code"] as? String == "INVALID_INPUT", "\(body)")
                #expect((error?["message"] as? String)?.contains(field) == true, "\(body): \(String(describing: error))")
            }
            let missing = try await parlor.http("POST", "/users", body: ["display_name": "Bo"], token: bo.token)
            #expect(missing.0 == 400 && errorCode(missing.1) == "BAD_REQUEST")
            let anonymous = try await parlor.http("POST", "/users", body: ["display_name": "Bo", "handle": "bobo"])
            #expect(anonymous.0 == 401 && errorCode(anonymous.1) == "UNAUTHENTICATED")
            #expect(try await parlor.http("GET", "/users/\(bo.id)").0 == 401)
            let none = try await parlor.http("GET", "/users/\(bo.id)", token: bo.token)
            #expect(none.0 == 404 && errorCode(none.1) == "PROFILE_NOT_FOUND")
            let notAnID = try await parlor.http("GET", "/users/bob", token: bo.token)
            #expect(notAnID.0 == 400 && errorCode(notAnID.1) == "INVALID_INPUT")
            #expect(try await parlor.http("DELETE", "/users/\(bo.id)", token: bo.token).0 == 405)
        }
    }

    @Test func youChangeOnlyYourOwnProfileAndOnlyWhatYouSend() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let ann = try await parlor.member("ann", "Ann", nickname: "Annie")
            let bo = try await parlor.member("bo_b", "Bo")
            let cy = try await parlor.signUp()

            let (status, changed) = try await parlor.http(
                "PUT", "/users/\(ann.id)", body: ["nickname": NSNull(), "avatar_url": "https://cdn.example/a.png"], token: ann.token)
            #expect(status == 200)
            let profile = try #require(changed as? [String: Any])
            #expect(profile["nickname"] is NSNull && profile["avatar_url"] as? String == "https://cdn.example/a.png")
            #expect(profile["display_name"] as? String == "Ann" && profile["handle"] as? String == "ann")
            #expect((profile["updated_at"] as? String ?? "") >= (profile["created_at"] as? String ?? "~"))
            let renamed = try await parlor.http("PUT", "/users/\(ann.id)", body: ["handle": "Annabel", "display_name": "Annabel"], token: ann.token)
            #expect(renamed.0 == 200 && (renamed.1 as? [String: Any])?["handle"] as? String == "annabel")
            // An empty body changes nothing.
            #expect(try await parlor.http("PUT", "/users/\(ann.id)", body: [:], token: ann.token).0 == 200)

            let others = try await parlor.http("PUT", "/users/\(ann.id)", body: ["display_name": "Bo"], token: bo.token)
            #expect(others.0 == 403 && errorCode(others.1) == "FORBIDDEN")
            let taken = try await parlor.http("PUT", "/users/\(bo.id)", body: ["handle": "annabel"], token: bo.token)
            #expect(taken.0 == 409 && errorCode(taken.1) == "HANDLE_TAKEN")
            let anonymous = try await parlor.http("PUT", "/users/\(bo.id)", body: ["display_name": "Bo"])
            #expect(anonymous.0 == 401 && errorCode(anonymous.1) == "UNAUTHENTICATED")
            let noProfile = try await parlor.http("PUT", "/users/\(cy.id)", body: ["display_name": "Cy"], token: cy.token)
            #expect(noProfile.0 == 404 && errorCode(noProfile.1) == "PROFILE_NOT_FOUND")
            for body: [String: Any] in [
                ["display_name": NSNull()], ["handle": NSNull()], ["avatar_url": "javascript:alert(1)"], ["avatar_url": "https://a b"],
                ["handle": "x"],
            ] {
                let refused = try await parlor.http("PUT", "/users/\(bo.id)", body: body, token: bo.token)
                #expect(refused.0 == 400 && errorCode(refused.1) == "INVALID_INPUT", "\(body)")
            }
            let wrongType = try await parlor.http("PUT", "/users/\(bo.id)", body: ["display_name": 7], token: bo.token)
            #expect(wrongType.0 == 400 && errorCode(wrongType.1) == "BAD_REQUEST")
        }
    }

    @Test func searchFindsNamesNicknamesAndHandlesWhateverTheCaseAndAccents() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let me = try await parlor.member("searcher", "Searcher")
            _ = try await parlor.member("zoe_x", "Chloé Zoë")
            _ = try await parlor.member("zoe", "Bo")
            _ = try await parlor.member("cyril", "Cy", nickname: "Mazoé")
            _ = try await parlor.member("diana", "Di")
            let (status, found) = try await parlor.http("GET", "/users?search=ZOE", token: me.token)
            #expect(status == 200)
            #expect((found as? [[String: Any]])?.map { $0["handle"] as? String } == ["zoe", "zoe_x", "cyril"])
            let accented = try await parlor.http("GET", "/users?search=chlo%C3%89", token: me.token)
            #expect((accented.1 as? [[String: Any]])?.map { $0["handle"] as? String } == ["zoe_x"])
            #expect(((accented.1 as? [[String: Any]])?.first?["stats"] as? [String: Any])?["played"] as? Int == 0)
            #expect((try await parlor.http("GET", "/users?search=nobody", token: me.token).1 as? [Any])?.isEmpty == true)

            for query in ["?search=z", "?search=%20z%20", "", "?search=" + String(repeating: "z", count: 51)] {
                let refused = try await parlor.http("GET", "/users\(query)", token: me.token)
                #expect(refused.0 == 400 && errorCode(refused.1) == "INVALID_INPUT", "\(query)")
            }
            #expect(try await parlor.http("GET", "/users?search=zoe").0 == 401)
        }
    }

    @Test func searchAnswersAtMostTwenty() async throws {
        try await withParlor(configure: accountLimits) { parlor in
            let me = try await parlor.signUp()
            for number in 0..<25 { _ = try await parlor.member("player_\(number)", "Player \(number)") }
            let found = try await parlor.http("GET", "/users?search=player", token: me.token)
            #expect((found.1 as? [Any])?.count == AccountsService.searchLimit)
        }
    }
}
