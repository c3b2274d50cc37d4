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

/// An upgraded channel with everything the application's WebSocket needs.
struct UpgradedConnection: Sendable {
    var bridge: WebSocketBridge
    var channel: any Channel
    var request: WebSocketUpgradeRequest
    var subprotocol: String?
    var compression: NegotiatedDeflate?
    var closeRecorder: WebSocketCloseRecorder
}

/// One accepted connection: its event loop side feeds `events`; `run` serves them in the connection's
/// own child task of the server's task group.
struct ServerConnection: Sendable {
    let channel: any Channel
    let events: AsyncStream<ServerConnectionEvent>

    func run(application: some WebSocketServerApplication, shutdown: ShutdownSignal, logger: Logger) async {
        for await event in events {
            switch event {
            case .request(let request, let promise):
                promise.succeed(await application.respond(to: request))
            case .webSocket(let upgraded):
                do {
                    try await WebSocket.run(
                        bridge: upgraded.bridge, channel: upgraded.channel,
                        subprotocol: upgraded.subprotocol, compression: upgraded.compression,
                        closeRecorder: upgraded.closeRecorder, shutdown: shutdown
                    ) { webSocket in
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

/// The live connections of a server, so that a shutdown can reach them.
final class ConnectionTracker: Sendable {
    private let channels = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])

    func register(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        channels.withLockedValue { $0[id] = channel }
        channel.closeFuture.whenComplete { [weak self] _ in
            self?.channels.withLockedValue { _ = $0.removeValue(forKey: id) }
        }
    }

    var count: Int { channels.withLockedValue { $0.count } }

    var all: [any Channel] { channels.withLockedValue { Array($0.values) } }
}

/// Sent through a connection's pipeline when the server begins a graceful shutdown: idle HTTP
/// connections close, busy ones close after their response.
struct ServerShutdownEvent: Sendable {}

/// Sent when the shutdown grace period is over: WebSockets still open are closed with 1001.
struct ServerGoingAwayEvent: Sendable {}
