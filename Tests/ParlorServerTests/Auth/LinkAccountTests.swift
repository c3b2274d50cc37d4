import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorAuth
@testable import ParlorServer

/// `linkAccount {jwt}` and `POST /account/link`: a device that played anonymously makes its identity its
/// account's, once — its profile, darts history and friends are then the account's on every device —
/// and every way it can go wrong is a clear code that changes nothing.
@Suite struct LinkAccountTests {
    static func code(_ reply: [String: Any]) -> String? { (reply["error"] as? [String: Any])?["code"] as? String }

    static func optional(_ configuration: inout ServerConfiguration) {
        accountLimits(&configuration)
        configuration.auth = AuthConfiguration(mode: .optional, issuers: [AccountSignInTests.supabaseIssuer()])
    }

    @Test func anAnonymousIdentityLinkedToAnAccountKeepsItsDartsHistoryAndFriends() async throws {
        let sub = UUID().uuidString.lowercased()
        let keys = try await TestIssuer.make([.init("secret", "HS256", claims: AccountSignInTests.supabaseClaims(sub: sub))])
        let jwt = keys.tokens[0]
        try await withParlor(configure: Self.optional) { parlor in
            // Anonymously, on the phone: a profile, a friend, and a darts match recorded.
            let bo = try await parlor.member("bobo", "Bo")
            let (user, phoneToken) = try await parlor.connect { phone in
                (try #require(phone.userId), try #require(phone.token))
            }
            let ann = AppUser(id: user, token: phoneToken)
            #expect(try await parlor.http("POST", "/users", body: ["handle": "ann", "display_name": "Ann"], token: ann.token).0 == 201)
            try await parlor.friends(ann, bo)
            let match = Uploads.newID()
            let body = Uploads.match(
                id: match, players: [["player_id": ann.id, "order": 0], ["player_id": bo.id, "order": 1]], winner: ann.id,
                updatedAt: "2026-10-10T20:21:00Z", turns: Uploads.leg(["player_id": ann.id], ["player_id": bo.id]))
            #expect(try await parlor.http("POST", "/matches", body: body, token: ann.token).0 == 201)

            // Still on the phone's connection, signed in with its Parlor token: link.
            try await parlor.connect(token: phoneToken) { phone in
                let linked = try await phone.call("linkAccount", ["jwt": jwt])
                let result = try #require(linked.result, "\(linked)")
                #expect(result["userId"] as? String == user)
                #expect(result["issuer"] as? String == AccountSignInTests.supabase && result["subject"] as? String == sub)
                #expect(result["alreadyLinked"] as? Bool == false)
                // Asked again (a retry after a lost reply): the same link, nothing changed.
                #expect(try await phone.call("linkAccount", ["jwt": jwt]).result?["alreadyLinked"] as? Bool == true)
            }

            // A second device signs in with the account: the same user, with its history and friends.
            try await parlor.connect(signIn: false) { tablet in
                let hello = try #require(try await tablet.call("hello", ["jwt": jwt]).result)
                #expect(hello["userId"] as? String == user && hello["resumed"] as? Bool == true)
                let games = try #require(try await tablet.call("listHistory").result?["games"] as? [[String: Any]])
                #expect(games.map { $0["code"] as? String } == [match] && games.first?["kind"] as? String == "darts")
                #expect(games.first?["result"] as? String == "won")
            }
            // The same `sub` from a third device: still one user with one history.
            try await parlor.connect(signIn: false) { laptop in
                let hello = try await laptop.call("hello", ["jwt": jwt])
                #expect(hello.result?["userId"] as? String == user)
                let history = try await laptop.call("listHistory")
                #expect((history.result?["games"] as? [[String: Any]])?.count == 1)
            }
            // Over HTTP, the account's bearer JWT is the same profile and the same friends.
            let friends = try #require(try await parlor.http("GET", "/friends", token: jwt).1 as? [[String: Any]])
            #expect(friends.map { ($0["friend"] as? [String: Any])?["handle"] as? String } == ["bobo"])
            #expect(friends.first?["status"] as? String == "accepted")
            let profile = try await parlor.http("GET", "/users/\(user)", token: jwt)
            #expect(profile.0 == 200 && (profile.1 as? [String: Any])?["handle"] as? String == "ann")
            // And Bo still sees Ann as his friend: nothing moved, so nothing dangles.
            let bosFriends = try #require(try await parlor.http("GET", "/friends", token: bo.token).1 as? [[String: Any]])
            #expect(bosFriends.map { ($0["friend"] as? [String: Any])?["id"] as? String } == [user])
        }
    }

    @Test func aLinkIsRefusedWithAClearCodeAndChangesNothing() async throws {
        let (first, second) = (UUID().uuidString.lowercased(), UUID().uuidString.lowercased())
        let keys = try await TestIssuer.make([
            .init("secret", "HS256", claims: AccountSignInTests.supabaseClaims(sub: first)),
            .init("secret", "HS256", claims: AccountSignInTests.supabaseClaims(sub: second)),
            .init("secret", "HS256", claims: AccountSignInTests.supabaseClaims(sub: first).merging(["exp": TestIssuer.now - 600]) { $1 }),
        ])
        let (account, other, expired) = (keys.tokens[0], keys.tokens[1], keys.tokens[2])
        try await withParlor(configure: Self.optional) { parlor in
            // Over HTTP: an anonymous user links to the first account.
            let ann = try await parlor.signUp()
            let (status, linked) = try await parlor.http("POST", "/account/link", body: ["jwt": account], token: ann.token)
            #expect(status == 200 && (linked as? [String: Any])?["userId"] as? String == ann.id, "\(String(describing: linked))")
            // Once: another account for the same identity is ALREADY_LINKED.
            let again = try await parlor.http("POST", "/account/link", body: ["jwt": other], token: ann.token)
            #expect(again.0 == 409 && errorCode(again.1) == "ALREADY_LINKED", "\(String(describing: again.1))")

            try await parlor.connect { bo in
                // The account already has its user: another identity is not merged into it.
                let taken = try await bo.call("linkAccount", ["jwt": account])
                #expect(Self.code(taken) == "ACCOUNT_ALREADY_LINKED", "\(taken)")
                // A bad token is the sign-in's refusal; a missing one is BAD_REQUEST.
                let stale = try await bo.call("linkAccount", ["jwt": expired])
                #expect(Self.code(stale) == "INVALID_TOKEN")
                #expect(((stale["error"] as? [String: Any])?["message"] as? String)?.contains("(expired)") == true)
                #expect(Self.code(try await bo.call("linkAccount", ["jwt": "not.a.jwt"])) == "INVALID_TOKEN")
                #expect(Self.code(try await bo.call("linkAccount", [:])) == "BAD_REQUEST")
                // Refused, Bo is who he was, and can still link to an account that has no user yet.
                let own = try #require(try await bo.call("linkAccount", ["jwt": other]).result)
                #expect(own["userId"] as? String == bo.userId && own["alreadyLinked"] as? Bool == false)
            }
            // The second account now signs in as Bo, the first as Ann.
            let (_, session) = try await parlor.http("POST", "/session", body: ["jwt": account])
            #expect((session as? [String: Any])?["userId"] as? String == ann.id)

            // Not signed in: UNAUTHENTICATED.
            let anonymous = try await parlor.http("POST", "/account/link", body: ["jwt": account])
            #expect(anonymous.0 == 401 && errorCode(anonymous.1) == "UNAUTHENTICATED")
            try await parlor.connect(signIn: false) { stranger in
                let refused = try await stranger.call("linkAccount", ["jwt": account])
                #expect(Self.code(refused) == "UNAUTHENTICATED")
            }
        }
        // A server without issuers has nothing to link to.
        try await withParlor(configure: accountLimits) { parlor in
            try await parlor.connect { phone in
                let refused = try await phone.call("linkAccount", ["jwt": account])
                #expect(Self.code(refused) == "AUTH_NOT_CONFIGURED")
            }
        }
    }
}
