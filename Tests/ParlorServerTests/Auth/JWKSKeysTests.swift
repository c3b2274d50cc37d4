import Foundation
import Logging
import ParlorRules
import ParlorTestSupport
import Testing
import WebSocketCore
@testable import ParlorAuth
@testable import ParlorServer

/// An issuer's JWKS, served by a local HTTP server that counts its fetches: keys by kid, at most one
/// refetch a minute for unknown kids, never a fetch on a known key's path, and known keys working while
/// the server is down.
@Suite(.serialized) struct JWKSKeysTests {
    static let issuer = "https://securetoken.google.com/parlor-test"

    static func keySet(_ server: TestJWKSServer, clock: ManualClock) throws -> JWKSKeys {
        var logger = Logger(label: "parlor.test")
        logger.logLevel = .critical
        return JWKSKeys(url: try HTTPURL(server.url), now: { clock.now }, logger: logger)
    }

    static func refusal(_ keys: JWKSKeys, _ kid: String) async -> String? {
        do {
            _ = try await keys.key(kid: kid)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func unknownKidsRefetchAtMostOnceAMinute() async throws {
        let material = try await TestIssuer.make([])
        let server = try await TestJWKSServer(serving: try material.jwkSet(["rsa"]))
        let clock = ManualClock()
        let keys = try Self.keySet(server, clock: clock)

        // The first key asked for fetches the set; known keys never fetch again.
        _ = try await keys.key(kid: "rsa")
        #expect(server.fetches == 1)
        for _ in 0..<20 { _ = try await keys.key(kid: "rsa") }
        #expect(server.fetches == 1)

        // The issuer rotates a key in: within the minute, a flood of unknown kids makes no fetch.
        try server.serve(try material.jwkSet(["rsa", "ec256"]))
        await withTaskGroup(of: String?.self) { group in
            for index in 0..<50 { group.addTask { await Self.refusal(keys, index == 0 ? "ec256" : "kid-\(index)") } }
            for await reason in group { #expect(reason == "unknown-kid") }
        }
        #expect(server.fetches == 1)

        // A minute on, one fetch for the whole flood (they wait for the same one), and the new key is there.
        clock.advance(bySeconds: 61)
        await withTaskGroup(of: String?.self) { group in
            for index in 0..<50 { group.addTask { await Self.refusal(keys, "kid-\(index)") } }
            for await reason in group { #expect(reason == "unknown-kid") }
        }
        #expect(server.fetches == 2)
        _ = try await keys.key(kid: "ec256")
        #expect(server.fetches == 2)
        // A key the issuer dropped is gone after the next fetch.
        try server.serve(try material.jwkSet(["ec256"]))
        clock.advance(bySeconds: 61)
        #expect(await Self.refusal(keys, "unknown") == "unknown-kid")
        #expect(server.fetches == 3)
        #expect(await Self.refusal(keys, "rsa") == "unknown-kid")
    }

    @Test func aStaleSetIsRefreshedInTheBackgroundAndKnownKeysKeepWorkingWhileTheServerIsDown() async throws {
        let material = try await TestIssuer.make([])
        let server = try await TestJWKSServer(serving: try material.jwkSet(["rsa", "ed25519"]), maxAge: 120)
        let clock = ManualClock()
        let keys = try Self.keySet(server, clock: clock)
        _ = try await keys.key(kid: "rsa")
        #expect(server.fetches == 1)

        // Past max-age, a known key is answered at once and the set is fetched again behind it.
        clock.advance(bySeconds: 121)
        _ = try await keys.key(kid: "rsa")
        await eventually { server.fetches == 2 }
        await keys.fetchSettled()

        // The server goes down: known keys keep working, before and after their max-age.
        try await server.stop()
        clock.advance(bySeconds: 121)
        for _ in 0..<5 { _ = try await keys.key(kid: "ed25519") }
        await keys.fetchSettled()
        clock.advance(bySeconds: 3600)
        _ = try await keys.key(kid: "rsa")
        await keys.fetchSettled()
        #expect(server.fetches == 2)
        // An unknown kid, once the minute allows a fetch, says the keys cannot be fetched.
        clock.advance(bySeconds: 61)
        #expect(await Self.refusal(keys, "new-key") == "keys-unavailable")
        #expect(await Self.refusal(keys, "new-key") == "unknown-kid")
        _ = try await keys.key(kid: "rsa")
    }

    @Test func tokensAreCheckedWithTheKeyTheirKidNames() async throws {
        let claims = JWTVerifierTests.claims(iss: Self.issuer, sub: "firebase-uid", aud: "parlor-test")
        let material = try await TestIssuer.make([
            .init("rsa", "RS256", kid: "rsa", claims: claims),
            .init("rsa", "RS256", kid: "ec256", claims: claims),  // an RSA signature naming an EC key
            .init("rsa", "RS256", kid: "rsa2", claims: claims),  // the wrong RSA key
            .init("rsa", "RS256", kid: "gone", claims: claims),
            .init("rsa", "RS256", claims: claims),  // no kid: the set's keys that fit are tried
            .init("ec256", "ES256", kid: "ec256", claims: claims),  // ES256 is not allowed for this issuer
        ])
        let server = try await TestJWKSServer(serving: try material.jwkSet(["rsa", "rsa2", "ec256"]))
        var logger = Logger(label: "parlor.test")
        logger.logLevel = .critical
        let configuration = AuthConfiguration(
            mode: .optional, issuers: [.init(iss: Self.issuer, audiences: ["parlor-test"], algorithms: [.rs256], jwksURL: try HTTPURL(server.url))])
        let keySet = JWKSKeys(url: try HTTPURL(server.url), now: { SystemClock().now }, logger: logger)
        let verifier = JWTVerifier(configuration: configuration, keySets: [Self.issuer: keySet])
        let outcomes = await material.tokens.asyncMap { await JWTVerifierTests.outcome(verifier, $0) }
        #expect((try? outcomes[0].get())?.subject == "firebase-uid")
        #expect(outcomes[1].failure?.reason == "key-type-mismatch")
        #expect(outcomes[2].failure?.reason == "bad-signature")
        #expect(outcomes[3].failure?.reason == "unknown-kid")
        #expect((try? outcomes[4].get())?.subject == "firebase-uid")
        #expect(outcomes[5].failure?.reason == "alg-not-allowed")
        #expect(server.fetches == 1)
    }

    @Test func theFetchIsBoundedInSizeAndTime() async throws {
        // A server that accepts and never answers: the fetch gives up at its deadline.
        let listener = try ExternalProcess(
            ["python3", "-u", "-c", "import socket,time\ns=socket.socket()\ns.bind(('127.0.0.1',0))\ns.listen()\nprint(s.getsockname()[1],flush=True)\ntime.sleep(20)"])
        try await listener.waitForOutput("the silent server's port") { out, _ in !out.isEmpty }
        let port = Int(listener.stdout.trimmingCharacters(in: .whitespacesAndNewlines))!
        await #expect(throws: HTTPClientExchange.Failure.timeout) {
            _ = try await HTTPFetch.get(try HTTPURL("http://127.0.0.1:\(port)/jwks"), timeout: .milliseconds(300))
        }
        listener.terminate()
        // A set larger than the limit is refused.
        let large = try await TestJWKSServer(serving: Data(String(repeating: " ", count: 300_000).utf8))
        await #expect(throws: HTTPClientExchange.Failure.tooLarge(limit: 256 * 1024)) { _ = try await HTTPFetch.get(try HTTPURL(large.url)) }
        // Cache-Control, held between a minute and a day.
        #expect(JWKSet.lifetime(["Cache-Control": "public, max-age=19800, must-revalidate"]) == 19800)
        #expect(JWKSet.lifetime(["Cache-Control": "max-age=5"]) == 60)
        #expect(JWKSet.lifetime(["Cache-Control": "max-age=9999999"]) == 86_400)
        #expect(JWKSet.lifetime(["Cache-Control": "no-store"]) == 60)
        #expect(JWKSet.lifetime([:]) == 300)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}

extension Array where Element: Sendable {
    func asyncMap<T>(_ transform: (Element) async -> T) async -> [T] {
        var results: [T] = []
        for element in self { results.append(await transform(element)) }
        return results
    }
}
