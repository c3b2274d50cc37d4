import Foundation
import NIOHTTP1
import SystemTLS

/// A JWK Set (RFC 7517 §5) as an issuer publishes it: its signature keys by `kid`, each imported into
/// OpenSSL (RSA `n`/`e`, EC `crv`/`x`/`y`, OKP Ed25519 `x`). Keys for encryption (`use: enc`), secret
/// keys (`kty: oct`: a secret at a public address is no secret) and keys Parlor cannot use are
/// skipped, each with why.
struct JWKSet: Sendable {
    var keys: [String: VerificationKey] = [:]
    /// Keys that could not be used, with why (for the log).
    var skipped: [String] = []

    struct Invalid: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    private struct Document: Decodable {
        let keys: [JWK]
    }

    struct JWK: Decodable {
        let kty: String?
        let kid: String?
        let use: String?
        let alg: String?
        let n: String?
        let e: String?
        let crv: String?
        let x: String?
        let y: String?
        let k: String?
    }

    init(parsing data: [UInt8]) throws(Invalid) {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: Data(data))
        } catch {
            throw Invalid(description: "not a JWK Set (a JSON object with keys)")
        }
        for (index, jwk) in document.keys.enumerated() {
            let name = jwk.kid ?? "#\(index)"
            guard let kid = jwk.kid, !kid.isEmpty else {
                skipped.append("\(name): no kid")
                continue
            }
            if let use = jwk.use, use != "sig" {
                skipped.append("\(name): use \(use)")
                continue
            }
            do {
                let key = try Self.key(jwk)
                if let alg = jwk.alg, let algorithm = JWSAlgorithm(rawValue: alg), !key.fits(algorithm) {
                    skipped.append("\(name): its alg \(alg) does not fit the key")
                    continue
                }
                keys[kid] = key
            } catch {
                skipped.append("\(name): \(error)")
            }
        }
    }

    /// The key a JWK describes.
    static func key(_ jwk: JWK) throws(Invalid) -> VerificationKey {
        func bytes(_ field: String?, _ name: String) throws(Invalid) -> [UInt8] {
            guard let field, let decoded = Base64URL.decode(field), !decoded.isEmpty else {
                throw Invalid(description: "\(name) is missing or not base64url")
            }
            return decoded
        }
        do {
            switch jwk.kty {
            case "RSA":
                return .publicKey(try PublicKey.rsa(modulus: try bytes(jwk.n, "n"), exponent: try bytes(jwk.e, "e")))
            case "EC":
                let bits: Int
                switch jwk.crv {
                case "P-256": bits = 256
                case "P-384": bits = 384
                default: throw Invalid(description: "curve \(jwk.crv ?? "(none)") is not supported")
                }
                return .publicKey(try PublicKey.ec(bits: bits, x: try bytes(jwk.x, "x"), y: try bytes(jwk.y, "y")))
            case "OKP":
                guard jwk.crv == "Ed25519" else { throw Invalid(description: "curve \(jwk.crv ?? "(none)") is not supported") }
                return .publicKey(try PublicKey.ed25519(try bytes(jwk.x, "x")))
            case "oct":
                throw Invalid(description: "a secret key (oct) is not taken from a key set")
            default:
                throw Invalid(description: "key type \(jwk.kty ?? "(none)") is not supported")
            }
        } catch let error as PublicKey.InvalidKey {
            throw Invalid(description: error.description)
        } catch let error as Invalid {
            throw error
        } catch {
            throw Invalid(description: "\(error)")
        }
    }

    /// How long a fetched set may be used without fetching it again: `Cache-Control: max-age`, held
    /// between a minute and a day; five minutes without one (or with `no-cache`/`no-store`, a minute).
    static func lifetime(_ headers: HTTPHeaders) -> Int64 {
        let directives = headers[canonicalForm: "Cache-Control"].map { $0.lowercased().trimmingCharacters(in: .whitespaces) }
        if directives.contains(where: { $0 == "no-cache" || $0 == "no-store" }) { return 60 }
        for directive in directives where directive.hasPrefix("max-age=") {
            if let seconds = Int64(directive.dropFirst("max-age=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))) {
                return min(max(seconds, 60), 86_400)
            }
        }
        return 300
    }
}
