import ParlorRules

/// Where the client's connection stands, as ``ParlorClient/connectionStates()`` reports it.
public enum ConnectionState: Sendable, Equatable, CustomStringConvertible {
    /// The first connection attempt is under way.
    case connecting
    /// Connected and signed in as `userId`.
    case connected(userId: UserID)
    /// The connection was lost (or could not be made) and attempt `attempt` to restore it is next;
    /// `reason` is a clause saying why ("the server closed the connection (1001 going away)").
    case reconnecting(attempt: Int, reason: String)
    /// The client stopped: closed by its owner (`reason` nil) or out of reconnect attempts.
    case closed(reason: String?)

    public var isConnected: Bool {
        if case .connected = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .connecting: "connecting"
        case .connected(let userId): "connected as \(userId)"
        case .reconnecting(let attempt, let reason): "reconnecting (attempt \(attempt)): \(reason)"
        case .closed(let reason): reason.map { "closed: \($0)" } ?? "closed"
        }
    }
}
