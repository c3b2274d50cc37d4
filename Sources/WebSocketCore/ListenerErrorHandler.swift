import Logging
import NIOConcurrencyHelpers
import NIOCore

/// Keeps one connection's failure from ending the listener.
///
/// NIO's accept path reports a connection it could not set up (a child channel option refused, its
/// registration failed) as an error on the *listening* channel, and the `NIOAsyncChannel` that
/// `WebSocketServer.run()` reads accepted connections from ends its stream on any error it sees — which
/// would end `run()`, and with it every open connection. This handler sits between NIO's accept handler
/// and that stream: it logs the error and stops it there. The failed connection is already closed by
/// NIO; the listener goes on accepting. (Accept errors such as EMFILE never get this far: NIO's
/// `AcceptBackoffHandler`, before the accept handler, backs off and keeps them to itself.)
final class ListenerErrorHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = NIOAny

    /// The name NIO's `ServerBootstrap` gives its accept handler, which this handler goes right after.
    static let acceptHandlerName = "AcceptHandler"

    private let logger: Logger
    private let failures: NIOLockedValueBox<Int>

    init(logger: Logger, failures: NIOLockedValueBox<Int>) {
        self.logger = logger
        self.failures = failures
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        failures.withLockedValue { $0 += 1 }
        logger.warning("A connection could not be set up; the server goes on accepting others", metadata: ["error": "\(error)"])
    }

    /// Puts a handler right after NIO's accept handler in `channel`'s pipeline (on its event loop).
    /// False when the pipeline has no handler of that name (a NIO that names it otherwise): the
    /// listener then runs unguarded, as it did before, and the caller says so.
    static func install(on channel: any Channel, logger: Logger, failures: NIOLockedValueBox<Int>) async -> Bool {
        do {
            try await channel.eventLoop.submit {
                let pipeline = channel.pipeline.syncOperations
                let accept = try pipeline.context(name: acceptHandlerName)
                try pipeline.addHandler(ListenerErrorHandler(logger: logger, failures: failures), position: .after(accept.handler))
            }.get()
            return true
        } catch {
            return false
        }
    }
}

