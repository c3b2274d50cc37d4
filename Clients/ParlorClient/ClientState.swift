import ParlorRules
import WebSocketCore

/// One open WebSocket and the number of the connection it is (1, 2, … over the client's life).
struct Connection: Sendable {
    let socket: WebSocket
    let generation: Int
}

/// Everything a ``ParlorClient`` knows, behind its lock.
struct ClientState: Sendable {
    typealias ReplyWaiter = CheckedContinuation<ReplyOutcome, Never>

    enum Phase {
        /// `run()` has not been called.
        case idle
        /// Connecting, or waiting to reconnect.
        case connecting
        /// Connected; `hello` and re-subscriptions under way. Requests still wait.
        case signingIn(Connection)
        /// Connected and signed in: requests go out.
        case open(Connection)
        case closed(reason: String?)

        var connection: Connection? {
            switch self {
            case .signingIn(let connection), .open(let connection): connection
            case .idle, .connecting, .closed: nil
            }
        }
    }

    var phase: Phase = .idle
    var generation = 0
    /// The newest connection known to have dropped.
    var lostGeneration = 0
    /// The newest connection the server closed with 1012 (service restart): a restarting node answers
    /// every request it reads before it closes, so what it left unanswered it never read.
    var restartedGeneration = 0
    var closeRequested = false
    /// Why the last connection attempt failed or the last connection ended.
    var lastFailure: String?
    /// Signed in at least once.
    var everConnected = false
    var userId: UserID?
    var pending: PendingRequests<ReplyWaiter>
    var subscriptions = SubscriptionTable()
    /// Which node of a cluster to be on.
    var routing = NodeRouting()
    /// The node the client is moving to (the current connection closes for one asking for it).
    var moving: String?
    var connectionWaiters = WaiterSlots<Result<Connection, ParlorClientError>>()
    var closeWaiters = WaiterSlots<Void>()

    init(maxPendingRequests: Int) {
        pending = PendingRequests(limit: maxPendingRequests)
    }
}
