import SystemTLS

/// The JWS algorithms an issuer may be allowed (`algorithms` in the auth configuration), and what each
/// needs of a key. `none` is not one of them: a token that names it is refused whatever the issuer.
public enum JWSAlgorithm: String, Sendable, CaseIterable, Codable {
    case hs256 = "HS256", hs384 = "HS384", hs512 = "HS512"
    case rs256 = "RS256", rs384 = "RS384", rs512 = "RS512"
    case ps256 = "PS256"
    case es256 = "ES256", es384 = "ES384"
    case edDSA = "EdDSA"

    /// An HMAC algorithm: checked with the issuer's shared secret, never with a public key.
    public var isHMAC: Bool { hmacHash != nil }

    var hmacHash: HashFunction? {
        switch self {
        case .hs256: .sha256
        case .hs384: .sha384
        case .hs512: .sha512
        default: nil
        }
    }

    /// The signature scheme of a public-key algorithm; nil for HMAC.
    var scheme: SignatureScheme? {
        switch self {
        case .hs256, .hs384, .hs512: nil
        case .rs256: .rsaPKCS1(.sha256)
        case .rs384: .rsaPKCS1(.sha384)
        case .rs512: .rsaPKCS1(.sha512)
        case .ps256: .rsaPSSSHA256
        case .es256: .ecdsaP256SHA256
        case .es384: .ecdsaP384SHA384
        case .edDSA: .ed25519
        }
    }

    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// A key that checks an issuer's signatures: a public key (from PEM or a JWK) or an HMAC secret. The
/// two never stand in for each other: an HMAC algorithm takes only a secret, and the others only a
/// public key of their own kind — so a token signed with HS256 over an issuer's *public* key (the
/// classic confusion) finds no secret to be checked against.
enum VerificationKey: Sendable {
    case publicKey(PublicKey)
    case secret([UInt8])

    /// Whether `algorithm` may be checked with this key.
    func fits(_ algorithm: JWSAlgorithm) -> Bool {
        switch self {
        case .secret: algorithm.isHMAC
        case .publicKey(let key): algorithm.scheme?.fits(key.kind) ?? false
        }
    }

    /// Whether `signature` is this key's over `message` under `algorithm` (false when the key does not fit it).
    func verifies(_ signature: [UInt8], over message: [UInt8], with algorithm: JWSAlgorithm) -> Bool {
        switch self {
        case .secret(let secret):
            guard let hash = algorithm.hmacHash else { return false }
            return HMACCheck.isValid(signature, for: message, key: secret, hash: hash)
        case .publicKey(let key):
            guard let scheme = algorithm.scheme else { return false }
            return key.isValidSignature(signature, for: message, scheme: scheme)
        }
    }

    var kindDescription: String {
        switch self {
        case .secret: "a shared secret"
        case .publicKey(let key): "an \(key.kind) public key"
        }
    }
}
