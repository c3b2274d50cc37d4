import NIOConcurrencyHelpers
import ParlorRules

/// Which users have at least one open connection right now. Room expiry asks it whether anyone in a
/// room is still around.
public final class Presence: Sendable {
    private let connections = NIOLockedValueBox<[UserID: Int]>([:])

    public init() {}

    public func connected(_ user: UserID) {
        connections.withLockedValue { $0[user, default: 0] += 1 }
    }

    public func disconnected(_ user: UserID) {
        connections.withLockedValue { connections in
            guard let count = connections[user] else { return }
            connections[user] = count > 1 ? count - 1 : nil
        }
    }

    public func isConnected(_ user: UserID) -> Bool {
        connections.withLockedValue { $0[user] != nil }
    }

    public var connectedUsers: Int { connections.withLockedValue { $0.count } }
}
