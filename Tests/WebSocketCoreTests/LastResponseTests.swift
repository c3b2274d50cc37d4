import NIOConcurrencyHelpers
import Testing
@testable import WebSocketCore

/// A response that says `Connection: close` is the last thing the server sends on its connection, and
/// it is sent whole, whatever the client sent after its request. (Found by `Tests/Fuzz`'s fuzz-http.)
@Suite struct LastResponseTests {
    /// HTTP/1.0 without keep-alive: the server answers once and closes. The bytes after the request are
    /// a parse error to NIO's decoder ("data after Connection: close"), which used to be answered with
    /// a second response, a 400, after the first.
    @Test(arguments: [
        "GET /healthz HTTP/1.0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
    ])
    func bytesAfterAClosingRequestGetNoSecondAnswer(request: String) async throws {
        try await withServer { port, _ in
            let raw = try await RawConnection(port: port)
            try await raw.send(request)
            #expect(await raw.waitUntil { raw.isClosed })
            let text = raw.receivedText
            #expect(text.hasPrefix("HTTP/1.1 200 OK"), "\(text)")
            #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2, "more than one response: \(text)")
        }
    }

    /// A keep-alive client pipelines a second request behind one the application is still answering
    /// when a graceful shutdown begins: the first answer must arrive whole (with `Connection: close`).
    /// The pipelined request used to reach the connection handler in the middle of writing that answer
    /// and close the connection before the answer was flushed.
    @Test func aPipelinedRequestDoesNotCostTheAnswerInFlightAtShutdown() async throws {
        let started = NIOLockedValueBox(false)
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        var application = TestApplication()
        application.respond = { request in
            if request.path == "/slow" {
                started.withLockedValue { $0 = true }
                for await _ in release { break }
                return .text(.ok, "slow answer")
            }
            return TestApplication.standardResponse(request)
        }
        try await withServer(configure: { $0.shutdownGracePeriod = .seconds(5) }, application: application) { port, server in
            let raw = try await RawConnection(port: port)
            try await raw.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await raw.waitUntil { started.withLockedValue { $0 } })
            server.beginGracefulShutdown()
            releaser.yield()
            #expect(await raw.waitUntil { raw.isClosed })
            let text = raw.receivedText
            #expect(text.hasPrefix("HTTP/1.1 200 OK"), "\(text)")
            #expect(text.contains("Connection: close"), "\(text)")
            #expect(text.hasSuffix("slow answer"), "\(text)")
        }
    }
    /// A request the application is still answering when the grace period ends is answered 503, with
    /// `Connection: close`, instead of losing its connection without a word. (Found by fuzz-http: the
    /// request got no answer at all.)
    @Test func aRequestStillUnansweredWhenTheGracePeriodEndsGets503() async throws {
        let started = NIOLockedValueBox(false)
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        var application = TestApplication()
        application.respond = { request in
            if request.path == "/slow" {
                started.withLockedValue { $0 = true }
                for await _ in release { break }
                return .text(.ok, "slow answer")
            }
            return TestApplication.standardResponse(request)
        }
        try await withServer(configure: { $0.shutdownGracePeriod = .milliseconds(200) }, application: application) { port, server in
            let raw = try await RawConnection(port: port)
            try await raw.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await raw.waitUntil { started.withLockedValue { $0 } })
            server.beginGracefulShutdown()
            #expect(await raw.waitUntil { raw.isClosed })
            releaser.yield()
            let text = raw.receivedText
            #expect(text.hasPrefix("HTTP/1.1 503 Service Unavailable"), "\(text)")
            #expect(text.contains("Connection: close"), "\(text)")
            #expect(text.hasSuffix("The server is shutting down\n"), "\(text)")
        }
    }
}
