/// The reply to subscribing to a game that runs on the server's clock (`observeLobby`, `observeQuiz`):
/// the id its events will carry, and the server's time, so a client can show deadlines on its own clock.
public struct TimedSubscription: Sendable, Equatable, Codable {
    public let subscription: Int
    public let serverTime: String

    public init(subscription: Int, serverTime: String) {
        self.subscription = subscription
        self.serverTime = serverTime
    }
}

/// The reply of an operation that answers `null` (`leaveRoom`, `unsubscribe`, …).
public struct NoResult: Sendable, Equatable, Decodable {
    public init() {}
}
