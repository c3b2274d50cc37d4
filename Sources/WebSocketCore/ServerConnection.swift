import Logging
import NIOConcurrencyHelpers
import NIOCore

/// Work a connection hands from its event loop to its task.
enum ServerConnectionEvent: Sendable {
    /// A complete plain HTTP request; complete the promise with the response.
    case request(HTTPRequest, EventLoopPromise<HTTPResponse>)
    /// The connection became a WebSocket.
    case webSocket(UpgradedConnection)
}

/// An upgraded connection that the application runs in a task, with the bridge that feeds it.
struct UpgradedConnection: Sendable {
    var connection: WebSocketConnection
    var bridge: WebSocketBridge
    var request: WebSocketUpgradeRequest
}

/// One accepted connection: its event loop side feeds `events`; `run` serves them in the connection's
/// own child task of the server's task group — its HTTP requests, and its WebSocket if the application
/// runs it in a task. A WebSocket the application receives without a task ends this one at the upgrade.
struct ServerConnection: Sendable {
    let channel: any Channel
    let events: AsyncStream<ServerConnectionEvent>

    func run(application: some WebSocketServerApplication, logger: Logger) async {
        for await event in events {
            switch event {
            case .request(let request, let promise):
                promise.succeed(await application.respond(to: request))
            case .webSocket(let upgraded):
                do {
                    try await WebSocket.run(connection: upgraded.connection, bridge: upgraded.bridge) { webSocket in
                        await application.handle(webSocket, request: upgraded.request)
                    }
                } catch {
                    logger.debug("WebSocket connection ended with an error", metadata: ["error": "\(error)"])
                }
                return
            }
        }
    }
}

/// The live connections of a server, so that a shutdown can reach them and the server can wait for
/// the last one (a WebSocket driven by a receiver has no task to wait for).
final class ConnectionTracker: Sendable {
    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        var emptyWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = NIOLockedValueBox(State())

    func register(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        state.withLockedValue { $0.channels[id] = channel }
        channel.closeFuture.whenComplete { [weak self] _ in
            let waiters = self?.state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
                state.channels.removeValue(forKey: id)
                guard state.channels.isEmpty else { return [] }
                defer { state.emptyWaiters = [] }
                return state.emptyWaiters
            }
            for waiter in waiters ?? [] { waiter.resume() }
        }
    }

    var count: Int { state.withLockedValue { $0.channels.count } }

    var all: [any Channel] { state.withLockedValue { Array($0.channels.values) } }

    /// Returns once no connection is open.
    func waitUntilEmpty() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let empty = state.withLockedValue { state -> Bool in
                guard !state.channels.isEmpty else { return true }
                state.emptyWaiters.append(continuation)
                return false
            }
            if empty { continuation.resume() }
        }
    }
}

/// Sent through a connection's pipeline when the server begins a graceful shutdown: idle HTTP
/// connections close, busy ones close after their response.
struct ServerShutdownEvent: Sendable {}

/// Sent when the shutdown grace period is over: WebSockets still open are closed with 1001.
struct ServerGoingAwayEvent: Sendable {}
