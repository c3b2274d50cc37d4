import Foundation
import ParlorRules

/// A token that passed: who it names, for whom, until when.
public struct VerifiedToken: Sendable, Equatable {
    public let issuer: String
    public let subject: String
    /// `exp`, in seconds since 1970.
    public let expiresAt: Int64
    /// `role`, when the token has one (Supabase's `authenticated`).
    public let role: String?
}

/// Checks external JWTs (RFC 7519) against the configured issuers: compact form, header, the issuer by
/// `iss`, its allowed algorithms, its key (the kind the algorithm needs), the signature — by OpenSSL,
/// through `VerificationKey` — and then `aud`, `exp`, `nbf` and `iat` within the clock skew, and `sub`.
package struct JWTVerifier: Sendable {
    private let configuration: AuthConfiguration
    private let issuers: [String: AuthConfiguration.Issuer]
    private let keySets: [String: JWKSKeys]

    package init(configuration: AuthConfiguration, keySets: [String: JWKSKeys]) {
        self.configuration = configuration
        issuers = Dictionary(configuration.issuers.map { ($0.iss, $0) }) { first, _ in first }
        self.keySets = keySets
    }

    private struct Header: Decodable {
        let alg: String?
        let kid: String?
        let crit: [String]?
    }

    private struct Claims: Decodable {
        let iss: String?
        let sub: String?
        let aud: Audience?
        let exp: Double?
        let nbf: Double?
        let iat: Double?
        let role: String?
    }

    /// `aud` is a string or an array of strings (RFC 7519 §4.1.3).
    private struct Audience: Decodable {
        let values: [String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) {
                values = [one]
            } else {
                values = try container.decode([String].self)
            }
        }
    }

    package func verify(_ token: String, now: Instant) async throws(JWTRefusal) -> VerifiedToken {
        guard token.utf8.count <= configuration.maxTokenBytes else { throw .tooLarge(limit: configuration.maxTokenBytes) }
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw .malformed(parts.count == 5 ? "an encrypted token (JWE) is not accepted" : "it has \(parts.count) parts, not 3")
        }
        guard let headerBytes = Base64URL.decode(Substring(parts[0])), let payloadBytes = Base64URL.decode(Substring(parts[1])),
            let signature = Base64URL.decode(Substring(parts[2]))
        else { throw .malformed("a part is not base64url") }
        guard let header = try? JSONDecoder().decode(Header.self, from: Data(headerBytes)) else {
            throw .malformed("the header is not a JSON object")
        }
        guard let alg = header.alg else { throw .malformed("the header has no alg") }
        guard alg.lowercased() != "none" else { throw .algorithmNone }
        guard let algorithm = JWSAlgorithm(rawValue: alg) else { throw .algorithmUnsupported(alg) }
        guard header.crit == nil else { throw .criticalHeader }
        guard let claims = try? JSONDecoder().decode(Claims.self, from: Data(payloadBytes)) else {
            throw .malformed("the payload is not a JSON object of claims")
        }
        guard let iss = claims.iss else { throw .missingClaim("iss") }
        guard let issuer = issuers[iss] else { throw .unknownIssuer(iss) }
        guard issuer.algorithms.contains(algorithm) else { throw .algorithmNotAllowed(alg, issuer: iss) }

        let signingInput = Array(token.utf8.prefix(parts[0].count + 1 + parts[1].count))
        let candidates = try await keys(for: issuer, algorithm: algorithm, kid: header.kid)
        guard candidates.contains(where: { $0.verifies(signature, over: signingInput, with: algorithm) }) else {
            throw .badSignature
        }

        guard let audiences = claims.aud?.values, audiences.contains(where: issuer.audiences.contains) else {
            throw .wrongAudience(issuer: iss)
        }
        let seconds = Double(now.millisecondsSinceEpoch) / 1000
        let skew = Double(configuration.clockSkewSeconds)
        guard let exp = claims.exp, exp.isFinite else { throw .missingClaim("exp") }
        guard seconds <= exp + skew else { throw .expired }
        if let nbf = claims.nbf, !(nbf.isFinite && nbf <= seconds + skew) { throw .notYetValid }
        if let iat = claims.iat, !(iat.isFinite && iat <= seconds + skew) { throw .notYetValid }
        guard let sub = claims.sub, !sub.isEmpty, sub.utf8.count <= 255 else { throw .missingClaim("sub") }
        // Held below the year 33658, so that no `exp` an issuer signs overflows a time in milliseconds.
        return VerifiedToken(issuer: iss, subject: sub, expiresAt: Int64(min(exp, 1e12).rounded(.down)), role: claims.role)
    }

    /// The keys a token of `issuer` signed with `algorithm` may be checked with: its secret for an HMAC
    /// algorithm; otherwise the key its `kid` names in the issuer's key set, or — without a `kid`, or
    /// with no key set — the static keys (and known set keys) of the kind the algorithm needs.
    private func keys(for issuer: AuthConfiguration.Issuer, algorithm: JWSAlgorithm, kid: String?) async throws(JWTRefusal)
        -> [VerificationKey]
    {
        if algorithm.isHMAC {
            guard let secret = issuer.secret else {
                throw .keyTypeMismatch("\(algorithm.rawValue) needs a shared secret, and \(issuer.iss) has public keys only")
            }
            return [.secret(secret)]
        }
        var candidates: [VerificationKey]
        if let kid, let keySet = keySets[issuer.iss] {
            let key = try await keySet.key(kid: kid)
            guard key.fits(algorithm) else {
                throw .keyTypeMismatch("the key \(kid) is \(key.kindDescription), which \(algorithm.rawValue) cannot use")
            }
            return [key]
        }
        candidates = issuer.publicKeys.map(VerificationKey.publicKey)
        if let keySet = keySets[issuer.iss] { candidates += await keySet.knownKeys() }
        let fitting = candidates.filter { $0.fits(algorithm) }
        guard !fitting.isEmpty else {
            if kid == nil, keySets[issuer.iss] != nil, issuer.publicKeys.isEmpty { throw .missingClaim("kid (header)") }
            throw .keyTypeMismatch("\(issuer.iss) has no key that \(algorithm.rawValue) can use")
        }
        return fitting
    }
}
