import NIOCore
import NIOHTTP1
import Testing
@testable import WebSocketCore

/// The application names a body limit per method and path, asked before the body is read; everything
/// else keeps the server's `maxRequestBodySize`.
@Suite struct RequestBodyLimitTests {
    /// `POST /upload` takes up to 1,000 bytes; every other request the configured 100.
    static let application = TestApplication(bodyLimit: { method, path in
        method == .POST && path == "/upload" ? 1000 : nil
    })

    static func post(_ path: String, bytes: Int, chunked: Bool = false, port: Int) async throws -> String {
        let connection = try await RawConnection(port: port)
        let body = String(repeating: "x", count: bytes)
        if chunked {
            try await connection.send(
                "POST \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + String(bytes, radix: 16) + "\r\n" + body + "\r\n0\r\n\r\n")
        } else {
            try await connection.send("POST \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: \(bytes)\r\n\r\n" + body)
        }
        // Every answer here closes the connection (the request asked to; a 413 always does).
        _ = await connection.waitUntil { connection.isClosed }
        await connection.close()
        return connection.receivedText
    }

    @Test func aRouteWithItsOwnLimitTakesALargerBody() async throws {
        try await withServer(configure: { $0.maxRequestBodySize = 100 }, application: Self.application) { port, _ in
            let answer = try await Self.post("/upload", bytes: 900, port: port)
            #expect(answer.hasPrefix("HTTP/1.1 404"))
            #expect(answer.contains("body 900 bytes"))
        }
    }

    @Test func pastTheRoutesLimitIs413WithTheLimit() async throws {
        try await withServer(configure: { $0.maxRequestBodySize = 100 }, application: Self.application) { port, _ in
            let declared = try await Self.post("/upload", bytes: 1001, port: port)
            #expect(declared.hasPrefix("HTTP/1.1 413"))
            #expect(declared.contains("Request body over 1000 bytes"))
            // Without a Content-Length the limit holds as the body arrives.
            let streamed = try await Self.post("/upload", bytes: 1500, chunked: true, port: port)
            #expect(streamed.hasPrefix("HTTP/1.1 413"))
            #expect(streamed.contains("Request body over 1000 bytes"))
        }
    }

    @Test func otherRoutesKeepTheServersLimit() async throws {
        try await withServer(configure: { $0.maxRequestBodySize = 100 }, application: Self.application) { port, _ in
            let small = try await Self.post("/elsewhere", bytes: 100, port: port)
            #expect(small.hasPrefix("HTTP/1.1 404"))
            let large = try await Self.post("/elsewhere", bytes: 101, port: port)
            #expect(large.hasPrefix("HTTP/1.1 413"))
            #expect(large.contains("Request body over 100 bytes"))
            // The same path with another method is another route.
            let connection = try await RawConnection(port: port)
            try await connection.send("PUT /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: 500\r\n\r\n" + String(repeating: "x", count: 500))
            _ = await connection.waitUntil { connection.isClosed }
            #expect(connection.receivedText.hasPrefix("HTTP/1.1 413"))
            await connection.close()
        }
    }
}
