import ParlorAuth
import ParlorRules
import ParlorWire
import SystemTLS

/// Signs and checks invitations to private games, for every kind of game.
///
/// An invitation is `i1.<expires>.<signature>`: `expires` is the Unix second it stops working, and the
/// signature is HMAC-SHA256 with the server's secret over the game's kind, its code and `expires`,
/// base64url-encoded. So an invitation opens one game only, until its time, and cannot be altered or
/// made without the secret. Codes are reused once a game is gone; an invitation outliving its game (at
/// most seven days) would open a new game with the same code, which is why the kind and the code are
/// signed, not only the code, and the time is bounded.
struct GameInvites: Sendable {
    private static let version = "i1"
    private let secret: [UInt8]

    init(secret: [UInt8]) {
        precondition(secret.count >= 16, "an invitation secret needs at least 16 bytes")
        self.secret = secret
    }

    /// Invitations signed with a secret of this process alone (tests that build a kernel of their own).
    static func ephemeral() -> GameInvites { GameInvites(secret: SecureRandom.bytes(count: 32)) }

    /// An invitation to game `code` of `kind`, good until `expires` (whole seconds).
    func issue(kind: GameKind, code: String, expires: Instant) -> String {
        let seconds = expires.millisecondsSinceEpoch / 1000
        return "\(Self.version).\(seconds)." + Base64URL.encode(signature(kind: kind, code: code, seconds: seconds))
    }

    /// Why `invite` does not open game `code` of `kind` at `now`; nil when it does.
    func refusal(_ invite: String?, kind: GameKind, code: String, at now: Instant) -> WireError? {
        guard let invite else {
            return WireError(.notInvited, "This \(kind.noun) is private: join it with an invitation from its host.")
        }
        let parts = invite.split(separator: ".", omittingEmptySubsequences: false)
        guard invite.utf8.count <= GameAccessRequest.maxInviteLength, parts.count == 3, parts[0] == Substring(Self.version),
              let seconds = Int64(parts[1]), String(seconds) == parts[1],
              let signature = Base64URL.decodeCanonical(parts[2], maxLength: 64),
              HMACSHA256.isValid(signature, for: body(kind: kind, code: code, seconds: seconds), key: secret)
        else {
            return WireError(.notInvited, "This invitation is not for \(kind.noun) \(code): ask its host for a new one.")
        }
        guard now.millisecondsSinceEpoch < seconds * 1000 else {
            return WireError(.notInvited, "This invitation to \(kind.noun) \(code) has expired: ask its host for a new one.")
        }
        return nil
    }

    private func body(kind: GameKind, code: String, seconds: Int64) -> [UInt8] {
        Array("\(Self.version)|invite|\(kind.name)|\(code)|\(seconds)".utf8)
    }

    private func signature(kind: GameKind, code: String, seconds: Int64) -> [UInt8] {
        HMACSHA256.authenticationCode(for: body(kind: kind, code: code, seconds: seconds), key: secret)
    }
}
