import NIOCore
import Testing
@testable import WebSocketCore

/// One connection that cannot be set up must not stop the server: NIO reports it as an error on the
/// listening channel, which would otherwise end `run()` and close every connection.
@Suite struct ListenerErrorTests {
    /// What NIO's accept handler does when a child's socket option is refused or its registration
    /// fails: the child is closed and the error goes on down the listening channel's pipeline.
    private func failAConnectionAsNIODoes(on channel: any Channel, _ error: any Error & Sendable) async throws {
        try await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.context(name: ListenerErrorHandler.acceptHandlerName).fireErrorCaught(error)
        }.get()
    }

    @Test func aConnectionThatCannotBeSetUpIsCountedAndTheServerGoesOnServing() async throws {
        try await withServer { port, server in
            try await WebSocketClient.connect(to: "ws://127.0.0.1:\(port)/echo", configuration: clientConfiguration()) { open in
                let channel = try #require(server.listeningChannel)
                try await failAConnectionAsNIODoes(on: channel, IOError(errnoCode: 13, reason: "setsockopt"))
                try await failAConnectionAsNIODoes(on: channel, ChannelError.ioOnClosedChannel)
                #expect(server.failedConnectionCount == 2)
                // The connection that was open stays open…
                var replies = open.inbound.makeAsyncIterator()
                try await open.send(text: "still here")
                #expect(try await replies.next() == .text("still here"))
                // …and new ones are accepted.
                let reply = try await WebSocketClient.connect(to: "ws://127.0.0.1:\(port)/echo", configuration: clientConfiguration()) { fresh in
                    var freshReplies = fresh.inbound.makeAsyncIterator()
                    try await fresh.send(text: "new")
                    return try await freshReplies.next()
                }
                #expect(reply == .text("new"))
                #expect(server.connectionCount >= 1)
            }
        }
    }
}
