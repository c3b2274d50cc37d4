import NIOCore
import Testing
@testable import WebSocketCore

/// A response with an `HTTPBodyStream`: sent chunked as the producer writes it, ended and closed when it
/// returns; cut short (no last chunk) and closed when it throws.
@Suite struct StreamedBodyTests {
    private static func application(failing: Bool) -> TestApplication {
        var application = TestApplication()
        application.respond = { request in
            guard request.path == "/stream" else { return TestApplication.standardResponse(request) }
            var response = HTTPResponse(status: .ok, headers: ["Content-Type": "application/octet-stream"])
            response.bodyStream = HTTPBodyStream { writer in
                for part in ["first;", "second;", "third;"] {
                    try await writer.write(ByteBuffer(string: part)).get()
                    if failing, part == "second;" { throw CancellationError() }
                }
            }
            return response
        }
        return application
    }

    @Test func aStreamedBodyArrivesChunkedAndTheConnectionCloses() async throws {
        try await withServer(application: Self.application(failing: false)) { port, _ in
            let raw = try await RawConnection(port: port)
            try await raw.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await raw.waitUntil { raw.isClosed })
            let text = raw.receivedText
            #expect(text.hasPrefix("HTTP/1.1 200 OK"), "\(text)")
            #expect(text.lowercased().contains("transfer-encoding: chunked") && !text.lowercased().contains("content-length"), "\(text)")
            #expect(text.contains("Connection: close"), "\(text)")
            #expect(text.hasSuffix("\r\n\r\n6\r\nfirst;\r\n7\r\nsecond;\r\n6\r\nthird;\r\n0\r\n\r\n"), "\(text)")
        }
    }

    @Test func aProducerThatFailsCutsTheBodyShortWithoutItsLastChunk() async throws {
        try await withServer(application: Self.application(failing: true)) { port, _ in
            let raw = try await RawConnection(port: port)
            try await raw.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await raw.waitUntil { raw.isClosed })
            let text = raw.receivedText
            #expect(text.hasSuffix("\r\n\r\n6\r\nfirst;\r\n7\r\nsecond;\r\n"), "\(text)")
            #expect(!text.contains("third;"), "\(text)")
        }
    }
}
