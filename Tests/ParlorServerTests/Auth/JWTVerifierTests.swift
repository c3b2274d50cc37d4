import Foundation
import Logging
import ParlorRules
import SystemTLS
import Testing
@testable import ParlorAuth
@testable import ParlorServer

/// External JWTs checked against configured issuers: every algorithm accepted where it is allowed, and
/// every refusal with its reason. Keys and tokens are made by Python's cryptography and PyJWT.
@Suite struct JWTVerifierTests {
    static let audience = "parlor"
    static let staticIssuer = "https://login.example.org"
    static let hmacIssuer = "https://abc.supabase.co/auth/v1"
    static let esOnlyIssuer = "https://es-only.example.org"
    static let mixedIssuer = "https://mixed.example.org"

    static func claims(iss: String = staticIssuer, sub: String = "user-1", aud: Any = audience, exp: Int? = TestIssuer.now + 600) -> [String: Any] {
        var claims: [String: Any] = ["iss": iss, "sub": sub, "aud": aud, "iat": TestIssuer.now - 5]
        if let exp { claims["exp"] = exp }
        return claims
    }

    static func configuration(_ keys: TestIssuer) throws -> AuthConfiguration {
        let secret = Array(TestIssuer.secret.utf8)
        return AuthConfiguration(
            mode: .optional,
            issuers: [
                .init(
                    iss: staticIssuer, audiences: [audience], algorithms: [.rs256, .rs384, .rs512, .ps256, .es256, .es384, .edDSA],
                    publicKeys: try ["rsa", "ec256", "ec384", "ed25519"].map { try PublicKey.pem(keys.pems[$0]!) }),
                .init(iss: hmacIssuer, audiences: ["authenticated"], algorithms: [.hs256, .hs384, .hs512], secret: secret),
                .init(iss: esOnlyIssuer, audiences: [audience], algorithms: [.es256], publicKeys: [try PublicKey.pem(keys.pems["ec256"]!)]),
                .init(
                    iss: mixedIssuer, audiences: [audience], algorithms: [.hs256, .rs256], secret: secret,
                    publicKeys: [try PublicKey.pem(keys.pems["rsa"]!)]),
            ])
    }

    static func verifier(_ configuration: AuthConfiguration) -> JWTVerifier {
        JWTVerifier(configuration: configuration, keySets: [:])
    }

    static func outcome(_ verifier: JWTVerifier, _ token: String) async -> Result<VerifiedToken, JWTRefusal> {
        do {
            return .success(try await verifier.verify(token, now: SystemClock().now))
        } catch {
            return .failure(error)
        }
    }

    @Test func everyAlgorithmIsAcceptedWhereItIsAllowed() async throws {
        let cases: [(String, String, String)] = [
            ("rsa", "RS256", Self.staticIssuer), ("rsa", "RS384", Self.staticIssuer), ("rsa", "RS512", Self.staticIssuer),
            ("rsa", "PS256", Self.staticIssuer), ("ec256", "ES256", Self.staticIssuer), ("ec384", "ES384", Self.staticIssuer),
            ("ed25519", "EdDSA", Self.staticIssuer), ("secret", "HS256", Self.hmacIssuer), ("secret", "HS384", Self.hmacIssuer),
            ("secret", "HS512", Self.hmacIssuer), ("ec256", "ES256", Self.esOnlyIssuer), ("secret", "HS256", Self.mixedIssuer),
            ("rsa", "RS256", Self.mixedIssuer),
        ]
        let keys = try await TestIssuer.make(cases.enumerated().map { index, entry in
            let aud = entry.2 == Self.hmacIssuer ? "authenticated" : Self.audience
            return TestIssuer.Spec(entry.0, entry.1, claims: Self.claims(iss: entry.2, sub: "sub-\(index)", aud: aud))
        })
        let verifier = Self.verifier(try Self.configuration(keys))
        for (index, token) in keys.tokens.enumerated() {
            let outcome = await Self.outcome(verifier, token)
            #expect((try? outcome.get())?.subject == "sub-\(index)", "\(cases[index]): \(outcome)")
            #expect((try? outcome.get())?.issuer == cases[index].2)
        }
    }

    @Test func everyRefusalHasItsReason() async throws {
        let now = TestIssuer.now
        let specs: [TestIssuer.Spec] = [
            .init("rsa", "none", claims: Self.claims(), special: "none"),  // 0
            .init("rsa", "RS256", claims: Self.claims(iss: Self.esOnlyIssuer)),  // 1: not allowed for the issuer
            .init("rsa", "HS256", claims: Self.claims(), special: "confusion"),  // 2: HS256 over the public key, RS-only issuer
            .init("rsa", "HS256", claims: Self.claims(iss: Self.mixedIssuer), special: "confusion"),  // 3: … issuer with a secret too
            .init("rsa", "RS256", claims: Self.claims(iss: "https://elsewhere.example")),  // 4
            .init("rsa", "RS256", claims: Self.claims(aud: "someone-else")),  // 5
            .init("rsa", "RS256", claims: Self.claims(exp: now - 120)),  // 6: expired beyond the skew
            .init("rsa", "RS256", claims: Self.claims().merging(["nbf": now + 120]) { $1 }),  // 7
            .init("rsa2", "RS256", claims: Self.claims()),  // 8: another key
            .init("rsa", "RS256", claims: Self.claims().merging(["pad": String(repeating: "x", count: 9000)]) { $1 }),  // 9
            .init("rsa", "RS256", claims: Self.claims(exp: nil)),  // 10
            .init("rsa", "RS256", claims: Self.claims().filter { $0.key != "sub" }),  // 11
            .init("rsa", "RS256", claims: Self.claims(exp: now - 30)),  // 12: expired within the skew: accepted
            .init("rsa", "RS256", claims: Self.claims().merging(["nbf": now + 30]) { $1 }),  // 13: within the skew: accepted
            .init("rsa", "RS256", claims: Self.claims(aud: ["other", Self.audience])),  // 14: one of several: accepted
            .init("secret", "HS256", claims: Self.claims(iss: Self.hmacIssuer, aud: "authenticated")),  // 15
            .init("rsa", "RS256", claims: Self.claims().merging(["iat": now + 3600]) { $1 }),  // 16: issued in the future
            .init("rsa", "RS256", claims: Self.claims().merging(["exp": 1e300]) { $1 }),  // 17: far off: accepted, held
        ]
        let keys = try await TestIssuer.make(specs)
        let verifier = Self.verifier(try Self.configuration(keys))
        let t = keys.tokens
        let parts = t[15].split(separator: ".").map(String.init)
        var flipped = Array(parts[2])
        flipped[5] = flipped[5] == "A" ? "B" : "A"
        let expected: [(String, String)] = [
            (t[0], "alg-none"), (t[1], "alg-not-allowed"), (t[2], "alg-not-allowed"), (t[3], "bad-signature"),
            (t[4], "unknown-issuer"), (t[5], "wrong-audience"), (t[6], "expired"), (t[7], "not-yet-valid"),
            (t[8], "bad-signature"), (t[9], "too-large"), (t[10], "missing-claim"), (t[11], "missing-claim"),
            (t[16], "not-yet-valid"),
            // Truncated, altered and not base64url.
            ("\(parts[0]).\(parts[1])", "malformed"),
            ("\(parts[0]).\(parts[1]).", "bad-signature"),
            ("\(parts[0]).\(parts[1]).\(String(flipped))", "bad-signature"),
            ("\(parts[0]).\(parts[1].dropLast(3)).\(parts[2])", "malformed"),
            ("\(parts[0]).\(parts[1])*.\(parts[2])", "malformed"),
            ("\(parts[0]).\(parts[1])=.\(parts[2])", "malformed"),
            ("\(parts[0]).\(parts[1]).\(parts[2]).x.y", "malformed"),
            ("", "malformed"),
            ("not a token", "malformed"),
            ("e30.e30.", "malformed"),
        ]
        for (token, reason) in expected {
            let outcome = await Self.outcome(verifier, token)
            guard case .failure(let refusal) = outcome else {
                Issue.record("accepted, expected \(reason): \(token.prefix(80))")
                continue
            }
            #expect(refusal.reason == reason, "\(token.prefix(80)): \(refusal)")
            #expect(refusal.wireError.code.rawValue == "INVALID_TOKEN")
            #expect(refusal.wireError.message.contains("(\(reason))"))
        }
        for accepted in [t[12], t[13], t[14], t[15]] {
            #expect((try? await Self.outcome(verifier, accepted).get()) != nil)
        }
        #expect((try? await Self.outcome(verifier, t[17]).get())?.expiresAt == 1_000_000_000_000)
    }

    @Test func theClockSkewIsConfigurable() async throws {
        let keys = try await TestIssuer.make([.init("rsa", "RS256", claims: Self.claims(exp: TestIssuer.now - 30))])
        var configuration = try Self.configuration(keys)
        configuration.clockSkewSeconds = 0
        #expect(await Self.outcome(Self.verifier(configuration), keys.tokens[0]) == .failure(.expired))
        configuration.clockSkewSeconds = 60
        #expect((try? await Self.outcome(Self.verifier(configuration), keys.tokens[0]).get())?.subject == "user-1")
    }

    @Test func keysFromJWKsAndPEMAreImportedOrRefusedByOpenSSL() async throws {
        let keys = try await TestIssuer.make([])
        // RSA moduli under 2048 bits are refused, from PEM and from a JWK alike.
        #expect(throws: PublicKey.InvalidKey.self) { try PublicKey.pem(keys.pems["rsa1024"]!) }
        let small = try JSONDecoder().decode(JWKSet.JWK.self, from: JSONSerialization.data(withJSONObject: keys.jwks["rsa1024"]!))
        #expect(throws: JWKSet.Invalid.self) { try JWKSet.key(small) }
        // A point off the curve is refused.
        var ec = keys.jwks["ec256"]!
        ec["y"] = ec["x"]
        let offCurve = try JSONDecoder().decode(JWKSet.JWK.self, from: JSONSerialization.data(withJSONObject: ec))
        #expect(throws: JWKSet.Invalid.self) { try JWKSet.key(offCurve) }
        // Each kind from a JWK, and secret keys never from a key set.
        let set = try JWKSet(parsing: Array(keys.jwkSet(["rsa", "ec256", "ec384", "ed25519", "rsa1024"])))
        #expect(Set(set.keys.keys) == ["rsa", "ec256", "ec384", "ed25519"])
        let oct = try JSONSerialization.data(withJSONObject: ["keys": [["kty": "oct", "kid": "s", "k": "c2VjcmV0"]]])
        #expect(try JWKSet(parsing: Array(oct)).keys.isEmpty)
        #expect(throws: PublicKey.InvalidKey.self) { try PublicKey.pem("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n") }
    }
}
