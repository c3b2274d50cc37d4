import CSystemTLS

/// A public key held by the system OpenSSL, for checking signatures (the server's external sign-in
/// tokens): RSA, EC on P-256 or P-384, or Ed25519. Made from a JWK's numbers or from PEM; immutable, so
/// one key checks signatures on any thread at once.
public final class PublicKey: @unchecked Sendable {
    /// What the key is, as far as signature schemes care.
    public enum Kind: Sendable, Equatable, CustomStringConvertible {
        case rsa(bits: Int)
        case ecP256
        case ecP384
        case ed25519

        public var description: String {
            switch self {
            case .rsa(let bits): "RSA (\(bits) bits)"
            case .ecP256: "EC P-256"
            case .ecP384: "EC P-384"
            case .ed25519: "Ed25519"
            }
        }
    }

    /// Why a key could not be made.
    public struct InvalidKey: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// RSA moduli shorter than this are refused (RFC 7518 §3.3: 2048 bits or larger).
    public static let minimumRSABits = 2048

    private let key: OpaquePointer
    public let kind: Kind

    private init(taking key: OpaquePointer) throws(InvalidKey) {
        self.key = key
        switch parlor_pkey_kind(key) {
        case PARLOR_PKEY_RSA:
            let bits = Int(parlor_pkey_bits(key))
            guard bits >= Self.minimumRSABits else {
                parlor_pkey_free(key)
                throw InvalidKey("an RSA key of \(bits) bits is too short (at least \(Self.minimumRSABits))")
            }
            kind = .rsa(bits: bits)
        case PARLOR_PKEY_EC_P256: kind = .ecP256
        case PARLOR_PKEY_EC_P384: kind = .ecP384
        case PARLOR_PKEY_ED25519: kind = .ed25519
        default:
            parlor_pkey_free(key)
            throw InvalidKey("only RSA, EC P-256/P-384 and Ed25519 keys are supported")
        }
    }

    deinit { parlor_pkey_free(key) }

    /// An RSA key from its modulus and public exponent, big-endian (a JWK's `n` and `e`).
    public static func rsa(modulus: [UInt8], exponent: [UInt8]) throws(InvalidKey) -> PublicKey {
        _ = OpenSSLLibrary.initialised
        guard let key = parlor_pkey_rsa_public(modulus, modulus.count, exponent, exponent.count) else {
            throw InvalidKey("OpenSSL refused the RSA modulus and exponent")
        }
        return try PublicKey(taking: key)
    }

    /// An EC key from its affine coordinates (a JWK's `x` and `y`) on P-256 (`bits` 256) or P-384.
    public static func ec(bits: Int, x: [UInt8], y: [UInt8]) throws(InvalidKey) -> PublicKey {
        _ = OpenSSLLibrary.initialised
        guard let key = parlor_pkey_ec_public(Int32(bits), x, x.count, y, y.count) else {
            throw InvalidKey("x and y are not a point on P-\(bits)")
        }
        return try PublicKey(taking: key)
    }

    /// An Ed25519 key from its 32 bytes (an OKP JWK's `x`).
    public static func ed25519(_ x: [UInt8]) throws(InvalidKey) -> PublicKey {
        _ = OpenSSLLibrary.initialised
        guard let key = parlor_pkey_ed25519_public(x, x.count) else {
            throw InvalidKey("an Ed25519 key is 32 bytes (got \(x.count))")
        }
        return try PublicKey(taking: key)
    }

    /// The key of a PEM `PUBLIC KEY` or `CERTIFICATE`.
    public static func pem(_ text: String) throws(InvalidKey) -> PublicKey {
        _ = OpenSSLLibrary.initialised
        let bytes = Array(text.utf8)
        let key = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { parlor_pkey_from_pem($0.baseAddress, $0.count) }
        }
        guard let key else { throw InvalidKey("the text is not a PEM public key or certificate") }
        return try PublicKey(taking: key)
    }

    /// Whether `signature` is this key's over `message` under `scheme`. A scheme that does not fit the
    /// key's kind is never valid (nothing is computed then).
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8], scheme: SignatureScheme) -> Bool {
        guard scheme.fits(kind) else { return false }
        return parlor_signature_verify(key, scheme.code, message, message.count, signature, signature.count) == 1
    }
}

/// The signature schemes JWS uses (RFC 7518 §3.3–3.5, RFC 8037), each checked by OpenSSL.
public enum SignatureScheme: Sendable, Equatable {
    /// RSASSA-PKCS1-v1_5 (RS256/384/512).
    case rsaPKCS1(HashFunction)
    /// RSASSA-PSS with MGF1 and a salt as long as the hash (PS256).
    case rsaPSSSHA256
    /// ECDSA on P-256 with SHA-256 (ES256), the signature as JWS's raw r||s.
    case ecdsaP256SHA256
    /// ECDSA on P-384 with SHA-384 (ES384), raw r||s.
    case ecdsaP384SHA384
    /// Ed25519 (EdDSA).
    case ed25519

    public func fits(_ kind: PublicKey.Kind) -> Bool {
        switch (self, kind) {
        case (.rsaPKCS1, .rsa), (.rsaPSSSHA256, .rsa), (.ecdsaP256SHA256, .ecP256), (.ecdsaP384SHA384, .ecP384),
            (.ed25519, .ed25519):
            true
        default:
            false
        }
    }

    var code: Int32 {
        switch self {
        case .rsaPKCS1(.sha256): PARLOR_SIG_RSA_PKCS1_SHA256
        case .rsaPKCS1(.sha384): PARLOR_SIG_RSA_PKCS1_SHA384
        case .rsaPKCS1(.sha512): PARLOR_SIG_RSA_PKCS1_SHA512
        case .rsaPSSSHA256: PARLOR_SIG_RSA_PSS_SHA256
        case .ecdsaP256SHA256: PARLOR_SIG_ECDSA_P256_SHA256
        case .ecdsaP384SHA384: PARLOR_SIG_ECDSA_P384_SHA384
        case .ed25519: PARLOR_SIG_ED25519
        }
    }
}

/// The SHA-2 functions JWS algorithms name.
public enum HashFunction: Int, Sendable, Equatable {
    case sha256 = 256
    case sha384 = 384
    case sha512 = 512
}

/// HMAC over SHA-256/384/512, computed by OpenSSL and compared in constant time (HS256/384/512).
public enum HMACCheck {
    public static func isValid(_ code: [UInt8], for message: [UInt8], key: [UInt8], hash: HashFunction) -> Bool {
        _ = OpenSSLLibrary.initialised
        return parlor_hmac_verify(Int32(hash.rawValue), key, key.count, message, message.count, code, code.count) == 1
    }
}
