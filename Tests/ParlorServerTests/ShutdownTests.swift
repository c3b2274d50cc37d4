import ParlorTestSupport
import Testing
import WebSocketCore
@testable import ParlorServer

/// What clients see while the server shuts down (SIGTERM).
@Suite struct ShutdownTests {
    /// Clients that keep asking until they are told the server is restarting: every request they sent
    /// is answered — the one in flight with its result, later ones with SHUTTING_DOWN — and only then,
    /// once they have gone quiet, is the connection closed with 1001. None is lost behind a close frame.
    @Test func everyRequestCrossingAShutdownIsAnswered() async throws {
        try await withParlor(configure: {
            $0.limits.requestBurst = 100_000
            $0.limits.requestsPerSecond = 100_000
            $0.limits.addressRequestBurst = 100_000
            $0.limits.addressRequestsPerSecond = 100_000
            $0.listener.shutdownGracePeriod = .seconds(5)
        }) { harness in
            try await withThrowingTaskGroup(of: (sent: Int, answered: Int, lastCode: String?, close: WebSocketCloseCode).self) { group in
                for pipelined in [1, 1, 1, 4, 4, 4] {
                    group.addTask {
                        try await harness.connect { connection in
                            var sent = 0
                            var answered = 0
                            var lastCode: String?
                            // Closed loop, `pipelined` requests at a time, until SHUTTING_DOWN.
                            while lastCode != "SHUTTING_DOWN" {
                                let first = sent + 1
                                for id in first..<(first + pipelined) {
                                    try await connection.sendJSON(["id": 1000 + id, "op": "getCatalog", "args": ["since": 1]])
                                    sent += 1
                                }
                                for id in first..<(first + pipelined) {
                                    let reply = try await connection.reply(to: 1000 + id)
                                    answered += 1
                                    if let code = reply.errorCode { lastCode = code }
                                }
                            }
                            let status = await connection.webSocket.closeStatus
                            return (sent, answered, lastCode, status.code)
                        }
                    }
                }
                try await Task.sleep(for: .milliseconds(200))
                harness.server.beginGracefulShutdown()
                for try await client in group {
                    #expect(client.sent > 0)
                    #expect(client.answered == client.sent)
                    #expect(client.lastCode == "SHUTTING_DOWN")
                    #expect(client.close == .goingAway)
                }
            }
        }
    }

    /// A client that is quiet when the shutdown begins is closed with 1001 shortly after, well inside the
    /// grace period.
    @Test func aQuietClientIsClosedSoon() async throws {
        try await withParlor(configure: { $0.listener.shutdownGracePeriod = .seconds(30) }) { harness in
            try await harness.connect { connection in
                let started = ContinuousClock.now
                harness.server.beginGracefulShutdown()
                let status = await connection.webSocket.closeStatus
                #expect(status.code == .goingAway)
                #expect(ContinuousClock.now - started < .seconds(10))
            }
        }
    }
}
