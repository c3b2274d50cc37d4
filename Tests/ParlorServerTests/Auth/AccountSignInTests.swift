import Foundation
import ParlorRules
import ParlorTestSupport
import SystemTLS
import Testing
import WebSocketCore
@testable import ParlorAuth
@testable import ParlorServer

/// Players sign in with the accounts they already have, over the wire: a Supabase-shaped token (HS256,
/// `aud: authenticated`) and a Firebase-shaped one (RS256 through a JWKS) on the WebSocket and over
/// HTTP, one user per account on every device, and the server's modes.
@Suite struct AccountSignInTests {
    static let supabase = "https://abcdefghijklmnop.supabase.co/auth/v1"
    static let firebase = "https://securetoken.google.com/parlor-darts"

    static func supabaseClaims(sub: String) -> [String: Any] {
        let now = TestIssuer.now
        return [
            "iss": supabase, "sub": sub, "aud": "authenticated", "role": "authenticated", "exp": now + 3600, "iat": now,
            "email": "ann@example.org", "aal": "aal1", "session_id": UUID().uuidString.lowercased(), "is_anonymous": false,
        ]
    }

    static func firebaseClaims(sub: String) -> [String: Any] {
        let now = TestIssuer.now
        return [
            "iss": firebase, "aud": "parlor-darts", "auth_time": now - 60, "user_id": sub, "sub": sub, "iat": now, "exp": now + 3600,
            "email": "bo@example.org", "firebase": ["identities": [:] as [String: Any], "sign_in_provider": "password"],
        ]
    }

    static func supabaseIssuer() -> AuthConfiguration.Issuer {
        .init(iss: supabase, audiences: ["authenticated"], algorithms: [.hs256], secret: Array(TestIssuer.secret.utf8))
    }

    static func result(_ reply: [String: Any]) -> [String: Any]? { reply["result"] as? [String: Any] }

    @Test func aSupabaseTokenSignsInOverTheWebSocketAndHTTPAsOneUser() async throws {
        let sub = UUID().uuidString.lowercased()
        let keys = try await TestIssuer.make([
            .init("secret", "HS256", claims: Self.supabaseClaims(sub: sub)),
            .init("secret", "HS256", claims: Self.supabaseClaims(sub: sub).merging(["exp": TestIssuer.now - 600]) { $1 }),
            .init("secret", "HS256", claims: Self.supabaseClaims(sub: UUID().uuidString.lowercased())),
        ])
        let (jwt, expired, other) = (keys.tokens[0], keys.tokens[1], keys.tokens[2])
        try await withParlor(configure: { $0.auth = AuthConfiguration(mode: .optional, issuers: [Self.supabaseIssuer()]) }) { parlor in
            // First sign-in: a new user. Signed in, the connection does what any signed-in one does.
            let (user, token) = try await parlor.connect(signIn: false) { phone in
                let hello = try #require(Self.result(try await phone.call("hello", ["jwt": jwt])))
                #expect(hello["resumed"] as? Bool == false)
                let history = try await phone.call("listHistory")
                #expect(history["result"] != nil, "\(history)")
                return (try #require(hello["userId"] as? String), try #require(hello["token"] as? String))
            }
            // The same account on another device (and again on the first): the same user.
            try await parlor.connect(signIn: false) { tablet in
                let hello = try #require(Self.result(try await tablet.call("hello", ["jwt": jwt])))
                #expect(hello["userId"] as? String == user)
                #expect(hello["resumed"] as? Bool == true)
                // Its Parlor token resumes it like any token.
                let again = try #require(Self.result(try await tablet.call("hello", ["token": token])))
                #expect(again["userId"] as? String == user)
                // A refused token is a clear error, and the connection carries on.
                let refused = try await tablet.call("hello", ["jwt": expired])
                #expect((refused["error"] as? [String: Any])?["code"] as? String == "INVALID_TOKEN")
                #expect(((refused["error"] as? [String: Any])?["message"] as? String)?.contains("(expired)") == true)
                let both = try await tablet.call("hello", ["jwt": jwt, "token": token])
                #expect((both["error"] as? [String: Any])?["code"] as? String == "BAD_REQUEST")
                #expect(try await tablet.call("listHistory")["result"] != nil)
            }
            // Over HTTP: Authorization: Bearer <jwt> is the same user, on every route that takes a token.
            let (created, profile) = try await parlor.http(
                "POST", "/users", body: ["display_name": "Ann", "handle": "ann_\(Int.random(in: 1000...9999))"], token: jwt)
            #expect(created == 201, "\(String(describing: profile))")
            #expect((profile as? [String: Any])?["id"] as? String == user)
            let (status, session) = try await parlor.http("POST", "/session", body: ["jwt": jwt])
            #expect(status == 200)
            #expect((session as? [String: Any])?["userId"] as? String == user)
            let (refusedStatus, refused) = try await parlor.http("GET", "/users/\(user)", token: expired)
            #expect(refusedStatus == 401)
            #expect(((refused as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "INVALID_TOKEN")
            // Another account is another user; anonymous sign-in still works in `optional`.
            let (_, someone) = try await parlor.http("POST", "/session", body: ["jwt": other])
            #expect((someone as? [String: Any])?["userId"] as? String != user)
            try await parlor.connect { anonymous in #expect(anonymous.userId != nil && anonymous.userId != user) }
        }
    }

    @Test func aFirebaseTokenSignsInThroughTheIssuersJWKS() async throws {
        let uid = "kZ4rXn2QbSe9Vw1aLc0pTm7YhU3j"
        let keys = try await TestIssuer.make([
            .init("rsa", "RS256", kid: "rsa", claims: Self.firebaseClaims(sub: uid)),
            .init("rsa", "RS256", kid: "rsa", claims: Self.firebaseClaims(sub: uid).merging(["aud": "another-project"]) { $1 }),
            .init("secret", "HS256", kid: "rsa", claims: Self.firebaseClaims(sub: uid)),
        ])
        let jwks = try await TestJWKSServer(serving: try keys.jwkSet(["rsa", "ec256"]))
        let issuer = AuthConfiguration.Issuer(iss: Self.firebase, audiences: ["parlor-darts"], algorithms: [.rs256], jwksURL: try HTTPURL(jwks.url))
        try await withParlor(configure: { $0.auth = AuthConfiguration(mode: .optional, issuers: [issuer]) }) { parlor in
            let user = try await parlor.connect(signIn: false) { phone in
                try #require(Self.result(try await phone.call("hello", ["jwt": keys.tokens[0]]))?["userId"] as? String)
            }
            try await parlor.connect(signIn: false) { tablet in
                #expect(Self.result(try await tablet.call("hello", ["jwt": keys.tokens[0]]))?["userId"] as? String == user)
                let wrongProject = try await tablet.call("hello", ["jwt": keys.tokens[1]])
                #expect(((wrongProject["error"] as? [String: Any])?["message"] as? String)?.contains("(wrong-audience)") == true)
                let hmac = try await tablet.call("hello", ["jwt": keys.tokens[2]])
                #expect(((hmac["error"] as? [String: Any])?["message"] as? String)?.contains("(alg-not-allowed)") == true)
            }
            let (created, profile) = try await parlor.http("POST", "/users", body: ["display_name": "Bo", "handle": "bo_\(Int.random(in: 1000...9999))"], token: keys.tokens[0])
            #expect(created == 201)
            #expect((profile as? [String: Any])?["id"] as? String == user)
            // One fetch of the key set served them all.
            #expect(jwks.fetches == 1)
        }
    }

    @Test func theModesDecideWhoMaySignIn() async throws {
        let keys = try await TestIssuer.make([.init("secret", "HS256", claims: Self.supabaseClaims(sub: "c0ffee00-0000-4000-8000-000000000001"))])
        let store = InMemoryStore()
        // Anonymous (the default): a jwt is refused, anonymous sign-in is as always.
        let anonymousToken = try await withParlor(store: store) { parlor in
            let token = try await parlor.connect(signIn: false) { phone in
                let refused = try await phone.call("hello", ["jwt": keys.tokens[0]])
                #expect((refused["error"] as? [String: Any])?["code"] as? String == "AUTH_NOT_CONFIGURED")
                return try #require(Self.result(try await phone.call("hello"))?["token"] as? String)
            }
            // Over HTTP a bearer that is not Parlor's token is ignored there, as it always was.
            let (publicStatus, _) = try await parlor.http("GET", "/rooms/ZZZZZ9", token: keys.tokens[0])
            #expect(publicStatus == 404)
            let (signedInStatus, signedIn) = try await parlor.http("POST", "/users", body: ["display_name": "Ed", "handle": "ed_1234"], token: keys.tokens[0])
            #expect(signedInStatus == 401)
            #expect(((signedIn as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "UNAUTHENTICATED")
            return token
        }
        // Required: only accounts. An anonymous hello (or a token of an anonymous user) is AUTH_REQUIRED.
        try await withParlor(store: store, configure: { $0.auth = AuthConfiguration(mode: .required, issuers: [Self.supabaseIssuer()]) }) { parlor in
            try await parlor.connect(signIn: false) { phone in
                let anonymous = try await phone.call("hello")
                #expect((anonymous["error"] as? [String: Any])?["code"] as? String == "AUTH_REQUIRED")
                #expect((anonymous["error"] as? [String: Any])?["status"] as? String == "unauthenticated")
                let old = try await phone.call("hello", ["token": anonymousToken])
                #expect((old["error"] as? [String: Any])?["code"] as? String == "AUTH_REQUIRED")
                #expect((try await phone.call("listHistory")["error"] as? [String: Any])?["code"] as? String == "UNAUTHENTICATED")
                let account = try #require(Self.result(try await phone.call("hello", ["jwt": keys.tokens[0]])))
                let token = try #require(account["token"] as? String)
                // The account's own Parlor token resumes it, on the WebSocket and over HTTP.
                #expect(Self.result(try await phone.call("hello", ["token": token]))?["userId"] as? String == account["userId"] as? String)
                let (status, _) = try await parlor.http("POST", "/users", body: ["display_name": "Cy", "handle": "cy_\(Int.random(in: 1000...9999))"], token: token)
                #expect(status == 201)
            }
            // A token in the upgrade request is held to the same rule before the first request is handled.
            try await parlor.connect(signIn: false, headers: [("Authorization", "Bearer \(anonymousToken)")]) { upgraded in
                let reply = try await upgraded.call("listHistory")
                #expect((reply["error"] as? [String: Any])?["code"] as? String == "UNAUTHENTICATED")
            }
            let accountToken = try await parlor.connect(signIn: false) { phone in
                try #require(Self.result(try await phone.call("hello", ["jwt": keys.tokens[0]]))?["token"] as? String)
            }
            try await parlor.connect(signIn: false, headers: [("Authorization", "Bearer \(accountToken)")]) { upgraded in
                let reply = try await upgraded.call("listHistory")
                #expect(reply["result"] != nil)
            }
            let (status, body) = try await parlor.http("POST", "/session")
            #expect(status == 401)
            #expect(((body as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "AUTH_REQUIRED")
            let (anonymousStatus, _) = try await parlor.http("POST", "/users", body: ["display_name": "Di", "handle": "di_1234"], token: anonymousToken)
            #expect(anonymousStatus == 401)
        }
    }
}

/// A connection signed in with a JWT that expires: told (`tokenExpired`), kept by `refreshAuth` with a
/// fresh token, closed after the grace without one; the server's clock is a manual one.
@Suite struct TokenExpiryTests {
    static let sub = "0f0e0d0c-0000-4000-8000-00000000abcd"

    static func claims(now: Int, exp: Int, sub: String = sub) -> [String: Any] {
        AccountSignInTests.supabaseClaims(sub: sub).merging(["iat": now, "exp": exp]) { $1 }
    }

    @Test func anExpiredSignInIsToldAndKeptByARefreshOrClosedAfterTheGrace() async throws {
        let clock = ManualClock()
        let now = Int(clock.now.millisecondsSinceEpoch / 1000)
        let keys = try await TestIssuer.make([
            .init("secret", "HS256", claims: Self.claims(now: now, exp: now + 100)),
            .init("secret", "HS256", claims: Self.claims(now: now, exp: now + 3600)),
            .init("secret", "HS256", claims: Self.claims(now: now, exp: now + 3600, sub: "someone-else")),
        ])
        let (short, fresh, otherAccount) = (keys.tokens[0], keys.tokens[1], keys.tokens[2])
        try await withParlor(clock: clock, configure: {
            $0.auth = AuthConfiguration(mode: .optional, issuers: [AccountSignInTests.supabaseIssuer()])
            $0.auth.expiryGraceSeconds = 30
            $0.auth.clockSkewSeconds = 0
        }) { parlor in
            try await parlor.connect(signIn: false) { kept in
                try await parlor.connect(signIn: false) { dropped in
                    let user = try #require(AccountSignInTests.result(try await kept.call("hello", ["jwt": short]))?["userId"] as? String)
                    #expect(AccountSignInTests.result(try await dropped.call("hello", ["jwt": short]))?["userId"] as? String == user)
                    let created = try await kept.call("createTicTacToe", ["playerName": "Ann"])
                    let code = try #require((AccountSignInTests.result(created)?["ticTacToe"] as? [String: Any])?["code"] as? String)

                    // The token expires: both connections are told, and both still work during the grace.
                    clock.advance(bySeconds: 101)
                    await parlor.services.timers.settled()
                    for connection in [kept, dropped] {
                        let event = try await connection.nextFrame()
                        #expect(event["event"] as? String == "tokenExpired" && event["sub"] == nil, "\(event)")
                        let data = try #require(event["data"] as? [String: Any])
                        #expect(data["code"] as? String == "TOKEN_EXPIRED")
                        #expect(data["graceSeconds"] as? Int == 30)
                        #expect(data["expiredAt"] as? Int == now + 100)
                        #expect(try await connection.call("getTicTacToe", ["code": code])["result"] != nil)
                    }

                    // One refreshes (another account's token does not do), the other does not.
                    let wrong = try await kept.call("refreshAuth", ["jwt": otherAccount])
                    #expect((wrong["error"] as? [String: Any])?["code"] as? String == "FORBIDDEN")
                    let refreshed = try #require(AccountSignInTests.result(try await kept.call("refreshAuth", ["jwt": fresh])))
                    #expect(refreshed["userId"] as? String == user)
                    #expect(refreshed["expiresAt"] as? Int == now + 3600)
                    let expired = try await kept.call("refreshAuth", ["jwt": short])
                    #expect(((expired["error"] as? [String: Any])?["message"] as? String)?.contains("(expired)") == true)

                    clock.advance(bySeconds: 31)
                    await parlor.services.timers.settled()
                    let status = await dropped.webSocket.closeStatus
                    #expect(status.code == .policyViolation && status.reason.hasPrefix("TOKEN_EXPIRED"), "\(status)")
                    // The refreshed connection carries on, its game with it.
                    let game = try await kept.call("getTicTacToe", ["code": code])
                    #expect(game["result"] != nil, "\(game)")
                }
            }
        }
    }
}
