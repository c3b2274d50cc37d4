import Dispatch
import FuzzSupport
import Foundation
import Logging
import NIOHTTP1
import ParlorRules
@testable import ParlorAuth
@testable import WebSocketCore

// Fuzzes reading and checking an external JWT (`JWTVerifier.verify`) as a `hello {jwt}` or a bearer
// token reaches it: the compact form, base64url, the header and claims as JSON, the issuer, the
// algorithm against the issuer's allowed ones and its key's kind, the signature (by OpenSSL), and the
// times against a fixed clock.
//
// Input: the token's bytes, read as UTF-8 text (no choice bytes: the seeds are tokens; see
// make-jwt-seeds.py). Two issuers are configured as `--auth-config` would configure them, through the
// same parser: a Supabase-shaped one with an HMAC secret (HS256 and HS512 allowed, not HS384), and a
// Firebase-shaped one with static PEM keys — RSA, EC P-256 and Ed25519 — allowed RS256, PS256, ES256 and
// EdDSA, and a JWKS (the RSA key as `kid` "rsa") that `JWKSKeys` fetches from memory: the target never
// touches the network, and an unknown `kid` is refused as it would be.
//
// Checked on every input:
// - verifying is deterministic (the same answer twice);
// - a refusal is INVALID_TOKEN with a reason word in its message (never UNAVAILABLE: the key set is
//   never down);
// - an accepted token names a configured issuer, a subject of 1 to 255 bytes, and an expiry after the
//   clock; it has three parts, its header's `alg` is not `none`, and its byte length is within the limit.

let configuration: AuthConfiguration = {
    let document: [String: Any] = [
        "mode": "optional", "clockSkewSeconds": 60,
        "issuers": [
            ["iss": FuzzKeys.hmacIssuer, "audiences": ["authenticated"], "algorithms": ["HS256", "HS512"], "secret": FuzzKeys.hmacSecret],
            [
                "iss": FuzzKeys.publicKeyIssuer, "audiences": ["parlor-fuzz"], "algorithms": ["RS256", "PS256", "ES256", "EdDSA"],
                "publicKeys": [FuzzKeys.rsa, FuzzKeys.ec256, FuzzKeys.ed25519], "jwksURL": "https://keys.invalid/jwks.json",
            ],
        ],
    ]
    do {
        return try AuthConfiguration.parse(try JSONSerialization.data(withJSONObject: document))
    } catch {
        fatalError("the target's own configuration is refused: \(error)")
    }
}()
/// The public-key issuer's key set, "fetched" from memory (a day's `Cache-Control`, as a real one says).
let keySets: [String: JWKSKeys] = {
    guard let url = configuration.issuers[1].jwksURL else { fatalError("the target's issuer has no jwksURL") }
    let response = HTTPClientExchange.Response(
        status: 200, headers: HTTPHeaders([("Cache-Control", "public, max-age=86400")]), body: Array(FuzzKeys.jwks.utf8))
    let quiet = Logger(label: "fuzz-jwt", factory: { _ in SwiftLogNoOpLogHandler() })
    return [FuzzKeys.publicKeyIssuer: JWKSKeys(url: url, now: { now }, logger: quiet, fetch: { response })]
}()
let verifier = JWTVerifier(configuration: configuration, keySets: keySets)
let now = Instant(millisecondsSinceEpoch: FuzzKeys.now * 1000)
let issuers = Set(configuration.issuers.map(\.iss))

/// `verify` run to its end from this synchronous entry point (it never suspends without a key set, but
/// it is async).
func verified(_ token: String) -> Result<VerifiedToken, JWTRefusal> {
    let outcome = Outcome()
    Task {
        do throws(JWTRefusal) {
            outcome.value = .success(try await verifier.verify(token, now: now))
        } catch {
            outcome.value = .failure(error)
        }
        outcome.done.signal()
    }
    outcome.done.wait()
    guard let value = outcome.value else { fatalError("verify gave no answer") }
    return value
}

/// Where the task leaves its answer. @unchecked: the task writes `value` before it signals `done`, and
/// the fuzzing thread reads it only after waiting for that.
final class Outcome: @unchecked Sendable {
    var value: Result<VerifiedToken, JWTRefusal>?
    let done = DispatchSemaphore(value: 0)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWT(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let token = String(decoding: FuzzInput(data, size).bytes, as: UTF8.self)
    let first = verified(token)
    require(first == verified(token), "verifying the same token twice differed")
    switch first {
    case .failure(let refusal):
        let error = refusal.wireError
        require(error.code == .invalidToken, "a refusal answered \(error.code): \(refusal)")
        require(error.message.contains("(\(refusal.reason))"), "\"\(error.message)\" does not say its reason")
    case .success(let accepted):
        require(issuers.contains(accepted.issuer), "accepted an issuer that is not configured: \(accepted.issuer)")
        require(!accepted.subject.isEmpty && accepted.subject.utf8.count <= 255, "accepted a subject of \(accepted.subject.utf8.count) bytes")
        require(accepted.expiresAt * 1000 + 60_000 >= now.millisecondsSinceEpoch, "accepted a token that expired at \(accepted.expiresAt)")
        require(token.utf8.count <= configuration.maxTokenBytes, "accepted a token of \(token.utf8.count) bytes")
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        require(parts.count == 3, "accepted a token of \(parts.count) parts")
        let header = Base64URL.decode(parts[0]).flatMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] }
        let alg = header?["alg"] as? String
        require(alg != nil && alg?.lowercased() != "none", "accepted a token whose alg is \(String(describing: alg))")
    }
    return 0
}
