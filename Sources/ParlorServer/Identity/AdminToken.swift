import ParlorAuth
import SystemTLS

/// The operator's token (`--admin-token`), which `/metrics` can require as `Authorization: Bearer`.
///
/// Checked by comparing HMACs under a key made at start-up, in constant time: neither how long the
/// check takes nor a guess's length tells anything about how much of the token it got right.
public struct AdminToken: Sendable {
    private let key: [UInt8]
    private let digest: [UInt8]

    init(_ token: String) {
        key = SecureRandom.bytes(count: 32)
        digest = HMACSHA256.authenticationCode(for: Array(token.utf8), key: key)
    }

    /// A fresh token: 32 random bytes, base64url (43 characters, safe to paste anywhere).
    public static func generate() -> String {
        Base64URL.encode(SecureRandom.bytes(count: 32))
    }

    func accepts(_ given: String?) -> Bool {
        HMACSHA256.isValid(digest, for: Array((given ?? "").utf8), key: key)
    }
}
