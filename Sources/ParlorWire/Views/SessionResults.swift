import ParlorRules

/// The reply to `hello`: who the connection is, a token to come back as them, whether it did, and —
/// from a node of a cluster — which node answered.
public struct HelloResult: Sendable, Equatable, Codable {
    public let userId: UserID
    public let token: String
    public let resumed: Bool
    /// The node of a cluster this connection reached (absent from a server on its own): a client
    /// compares it with the `node` events of the games it follows (`ServingNode`).
    public let node: String?

    public init(userId: UserID, token: String, resumed: Bool, node: String? = nil) {
        self.userId = userId
        self.token = token
        self.resumed = resumed
        self.node = node
    }
}

/// A `node` event (`{"node": "node2"}`), from a node of a cluster: the node that serves the game a
/// subscription follows. Sent after the game's current version when the subscription starts, and again
/// whenever the game moves. A client on another node reconnects asking for it (`/ws?node=node2`), so
/// its front routes it there; a client that does not is still served where it is, only slower.
public struct ServingNode: Sendable, Equatable, Codable {
    public let node: String

    public init(node: String) { self.node = node }
}

extension EventName {
    /// Which node of a cluster serves the game (`ServingNode`).
    public static let node = EventName(rawValue: "node")
}

/// The reply to `refreshAuth {jwt}`: the connection's account, and when the new token expires (`exp`,
/// seconds since 1970).
public struct RefreshAuthResult: Sendable, Equatable, Codable {
    public let userId: UserID
    public let expiresAt: Int64

    public init(userId: UserID, expiresAt: Int64) {
        self.userId = userId
        self.expiresAt = expiresAt
    }
}

/// The reply to `linkAccount {jwt}`: the caller's user, which the account (`issuer`, `subject`) signs in
/// as from now on, on every device; `alreadyLinked` when it already did (the same link asked again).
public struct LinkAccountResult: Sendable, Equatable, Codable {
    public let userId: UserID
    public let issuer: String
    public let subject: String
    public let alreadyLinked: Bool

    public init(userId: UserID, issuer: String, subject: String, alreadyLinked: Bool) {
        self.userId = userId
        self.issuer = issuer
        self.subject = subject
        self.alreadyLinked = alreadyLinked
    }
}

/// The `tokenExpired` event (no `sub`: it is the connection's): the JWT the connection signed in with
/// has expired. Send `refreshAuth {jwt}` with a fresh one within `graceSeconds`, or the connection is
/// closed (1008, reason beginning `TOKEN_EXPIRED`); until then it works as before.
public struct TokenExpiredEvent: Sendable, Equatable, Codable {
    /// Always `TOKEN_EXPIRED`.
    public let code: ErrorCode
    public let message: String
    /// The token's `exp`, seconds since 1970.
    public let expiredAt: Int64
    public let graceSeconds: Int

    public init(expiredAt: Int64, graceSeconds: Int) {
        code = .tokenExpired
        message = "Your sign-in has expired: send refreshAuth with a fresh jwt within \(graceSeconds) s to stay connected."
        self.expiredAt = expiredAt
        self.graceSeconds = graceSeconds
    }
}

extension EventName {
    /// The connection's JWT has expired (`TokenExpiredEvent`).
    public static let tokenExpired = EventName(rawValue: "tokenExpired")
}

/// The reply to an `observe…` operation: the id its events will carry as `sub`.
public struct Subscribed: Sendable, Equatable, Codable {
    public let subscription: Int

    public init(subscription: Int) { self.subscription = subscription }
}
