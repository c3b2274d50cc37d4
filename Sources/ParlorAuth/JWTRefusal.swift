import ParlorWire

/// Why a JWT was not accepted: each case a stable `reason` and a sentence for the person who configured
/// the issuer or wrote the client. On the wire every one is `INVALID_TOKEN` with the sentence and the
/// reason, but `keysUnavailable`, which is `UNAVAILABLE` (the same token may pass in a moment).
public enum JWTRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// Longer than the limit: refused before anything is decoded.
    case tooLarge(limit: Int)
    /// Not three base64url parts of JSON (a truncated token, a JWE, a stray character).
    case malformed(String)
    /// `alg: none`: never accepted.
    case algorithmNone
    /// An `alg` Parlor does not know.
    case algorithmUnsupported(String)
    /// An `alg` this issuer is not allowed.
    case algorithmNotAllowed(String, issuer: String)
    /// The header names an extension that must be understood (`crit`); Parlor understands none.
    case criticalHeader
    /// The token's key does not fit its algorithm (HS256 over a public key, RS256 over an EC key, …).
    case keyTypeMismatch(String)
    /// No issuer with this `iss` is configured.
    case unknownIssuer(String)
    /// No `aud` the issuer accepts.
    case wrongAudience(issuer: String)
    /// `exp` is past, beyond the clock skew.
    case expired
    /// `nbf` or `iat` is ahead, beyond the clock skew.
    case notYetValid
    /// A required claim is missing or of the wrong type.
    case missingClaim(String)
    /// The signature does not verify with the issuer's key.
    case badSignature
    /// The `kid` is not in the issuer's key set (after the one refetch a minute allows).
    case unknownKey(String)
    /// The key set could not be fetched, and the token's key is not among those known.
    case keysUnavailable(String)

    /// A stable word for the log and for tests.
    public var reason: String {
        switch self {
        case .tooLarge: "too-large"
        case .malformed: "malformed"
        case .algorithmNone: "alg-none"
        case .algorithmUnsupported: "alg-unsupported"
        case .algorithmNotAllowed: "alg-not-allowed"
        case .criticalHeader: "crit"
        case .keyTypeMismatch: "key-type-mismatch"
        case .unknownIssuer: "unknown-issuer"
        case .wrongAudience: "wrong-audience"
        case .expired: "expired"
        case .notYetValid: "not-yet-valid"
        case .missingClaim: "missing-claim"
        case .badSignature: "bad-signature"
        case .unknownKey: "unknown-kid"
        case .keysUnavailable: "keys-unavailable"
        }
    }

    public var description: String {
        switch self {
        case .tooLarge(let limit): "The token is longer than \(limit) bytes."
        case .malformed(let why): "The token is not a JWS in compact form: \(why)."
        case .algorithmNone: "The token is unsigned (alg: none); it is never accepted."
        case .algorithmUnsupported(let alg): "The token's algorithm \(alg) is not supported (\(JWSAlgorithm.names))."
        case .algorithmNotAllowed(let alg, let issuer): "The issuer \(issuer) is not allowed \(alg)."
        case .criticalHeader: "The token's header has crit extensions, which Parlor does not understand."
        case .keyTypeMismatch(let why): "The token's key does not fit its algorithm: \(why)."
        case .unknownIssuer(let iss): "No issuer \(iss) is configured on this server."
        case .wrongAudience(let issuer): "The token's aud is none of those configured for \(issuer)."
        case .expired: "The token has expired."
        case .notYetValid: "The token is not valid yet (nbf or iat is in the future)."
        case .missingClaim(let claim): "The token has no valid \(claim) claim."
        case .badSignature: "The token's signature does not verify."
        case .unknownKey(let kid): "The token's key \(kid) is not in its issuer's key set."
        case .keysUnavailable(let why): "The issuer's keys cannot be fetched now (\(why)); try again shortly."
        }
    }

    package var wireError: WireError {
        switch self {
        case .keysUnavailable: WireError(.unavailable, description)
        default: WireError(.invalidToken, "\(description) (\(reason))")
        }
    }
}
