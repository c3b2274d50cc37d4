import ParlorRules

/// The reply to `hello`: who the connection is, a token to come back as them, and whether it did.
public struct HelloResult: Sendable, Equatable, Codable {
    public let userId: UserID
    public let token: String
    public let resumed: Bool

    public init(userId: UserID, token: String, resumed: Bool) {
        self.userId = userId
        self.token = token
        self.resumed = resumed
    }
}

/// The reply to an `observe…` operation: the id its events will carry as `sub`.
public struct Subscribed: Sendable, Equatable, Codable {
    public let subscription: Int

    public init(subscription: Int) { self.subscription = subscription }
}
