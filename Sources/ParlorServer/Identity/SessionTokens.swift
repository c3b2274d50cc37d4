import Foundation
import ParlorAuth
import ParlorRules
import SystemTLS

/// Signs and checks the tokens that let a user resume their identity (and with it their seats).
///
/// A token is `v1.<userId>.<issuedAt>.<signature>`: the signature is HMAC-SHA256 over the rest with the
/// server secret, base64url-encoded. Altered tokens, and tokens signed with another server's secret,
/// fail verification. Tokens do not expire: like an anonymous Firebase user, the identity lasts as long
/// as the client keeps its token.
public struct SessionTokens: Sendable {
    private static let version = "v1"
    /// Longer inputs are rejected before any work is done on them.
    public static let maxTokenLength = 256

    private let secret: [UInt8]

    public init(secret: [UInt8]) {
        precondition(secret.count >= 16, "a token secret needs at least 16 bytes")
        self.secret = secret
    }

    /// A token for `user`, issued at `now`.
    public func issue(for user: UserID, at now: Instant) -> String {
        let body = "\(Self.version).\(user.rawValue).\(now.millisecondsSinceEpoch / 1000)"
        return body + "." + Base64URL.encode(HMACSHA256.authenticationCode(for: Array(body.utf8), key: secret))
    }

    /// The user a token names, or nil when it is malformed, altered or signed by another secret.
    public func verify(_ token: String) -> UserID? {
        guard token.utf8.count <= Self.maxTokenLength else { return nil }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == Substring(Self.version), Int64(parts[2]) != nil,
            let user = UserID(String(parts[1])), user.rawValue == String(parts[1]),
            let signature = Base64URL.decodeCanonical(parts[3], maxLength: 64)
        else { return nil }
        let body = parts[0..<3].joined(separator: ".")
        guard HMACSHA256.isValid(signature, for: Array(body.utf8), key: secret) else { return nil }
        return user
    }
}
