import NIOCore
import NIOHTTP1
import Testing
@testable import WebSocketCore

@Suite struct HandshakeTests {
    private func request(_ headers: [(String, String)], method: HTTPMethod = .GET, version: HTTPVersion = .http1_1) -> HTTPRequestHead {
        HTTPRequestHead(version: version, method: method, uri: "/ws", headers: HTTPHeaders(headers))
    }

    private let good: [(String, String)] = [
        ("Host", "example.com"), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
    ]

    private func replacing(_ name: String, with value: String?) -> [(String, String)] {
        var headers = good.filter { $0.0 != name }
        if let value { headers.append((name, value)) }
        return headers
    }

    /// RFC 6455 §1.3's worked example.
    @Test func acceptValueMatchesTheRFC() {
        #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func acceptsAValidRequestWithTokenListsInAnyCase() throws {
        let head = request(replacing("Connection", with: "keep-alive, UPGRADE").filter { $0.0 != "Upgrade" } + [("Upgrade", "WebSocket")])
        let validated = try WebSocketHandshake.validate(head, compression: nil).get()
        #expect(validated.acceptValue == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(validated.deflate == nil)
    }

    private func rejection(_ head: HTTPRequestHead) -> WebSocketHandshake.Rejection? {
        if case .failure(let rejection) = WebSocketHandshake.validate(head, compression: nil) { return rejection }
        return nil
    }

    @Test func rejectsEachBrokenRuleWithAReason() {
        #expect(rejection(request(good, method: .POST))?.status == .methodNotAllowed)
        #expect(rejection(request(good, version: .http1_0))?.status == .badRequest)
        #expect(rejection(request(replacing("Host", with: nil)))?.reason == "Exactly one Host header is required")
        #expect(rejection(request(replacing("Upgrade", with: "h2c")))?.reason == "Upgrade header must contain 'websocket'")
        #expect(rejection(request(replacing("Connection", with: "keep-alive")))?.reason == "Connection header must contain 'Upgrade'")
        #expect(rejection(request(replacing("Sec-WebSocket-Key", with: nil)))?.status == .badRequest)
        #expect(rejection(request(replacing("Sec-WebSocket-Key", with: "c2hvcnQ=")))?.reason == "Sec-WebSocket-Key must be the base64 encoding of 16 bytes")
        #expect(rejection(request(replacing("Sec-WebSocket-Key", with: "!!!!!!!!!!!!!!!!!!!!!!==")))?.status == .badRequest)
        #expect(rejection(request(good + [("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")]))?.status == .badRequest)
    }

    @Test func wrongVersionGets426WithTheSupportedVersion() throws {
        for version in [nil, "8", "13, 8"] as [String?] {
            let rejected = try #require(rejection(request(replacing("Sec-WebSocket-Version", with: version))))
            #expect(rejected.status == .upgradeRequired)
            #expect(rejected.headers.first?.0 == "Sec-WebSocket-Version" && rejected.headers.first?.1 == "13")
        }
    }

    @Test func collectsRequestedSubprotocolsInOrder() throws {
        let validated = try WebSocketHandshake.validate(
            request(good + [("Sec-WebSocket-Protocol", "parlor.v2, parlor.v1"), ("Sec-WebSocket-Protocol", "chat")]),
            compression: nil
        ).get()
        #expect(validated.requestedSubprotocols == ["parlor.v2", "parlor.v1", "chat"])
        #expect(rejection(request(good + [("Sec-WebSocket-Protocol", "bad token")])) != nil)
    }

    @Test func negotiatesDeflateOnlyWhenConfigured() throws {
        let offered = request(good + [("Sec-WebSocket-Extensions", "permessage-deflate; client_max_window_bits")])
        #expect(try WebSocketHandshake.validate(offered, compression: nil).get().deflate == nil)
        let deflate = try #require(try WebSocketHandshake.validate(offered, compression: .init()).get().deflate)
        #expect(deflate.response == "permessage-deflate; server_no_context_takeover")
        #expect(rejection(request(good + [("Sec-WebSocket-Extensions", "permessage-deflate; x=\"unterminated")])) != nil)
    }

    // MARK: Client side

    private func response(_ headers: [(String, String)], status: Int = 101) -> HTTPResponseHeadParser.Head {
        HTTPResponseHeadParser.Head(status: status, reason: "Switching Protocols", headers: headers)
    }

    @Test func clientAcceptsAValidResponse() throws {
        let key = "dGhlIHNhbXBsZSBub25jZQ=="
        let agreement = try WebSocketHandshake.validateServerResponse(
            response([("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), ("Sec-WebSocket-Protocol", "parlor.v1")]),
            key: key, offeredSubprotocols: ["parlor.v1"], compression: nil)
        #expect(agreement.subprotocol == "parlor.v1")
    }

    @Test func clientRejectsWrongAcceptUnofferedProtocolsAndExtensions() {
        let key = "dGhlIHNhbXBsZSBub25jZQ=="
        let base = [("Upgrade", "websocket"), ("Connection", "Upgrade")]
        #expect(throws: WebSocketHandshakeError.invalidResponse("Sec-WebSocket-Accept does not match our key")) {
            try WebSocketHandshake.validateServerResponse(response(base + [("Sec-WebSocket-Accept", "AAAA")]), key: key, offeredSubprotocols: [], compression: nil)
        }
        let accept = ("Sec-WebSocket-Accept", "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(throws: WebSocketHandshakeError.self) {
            try WebSocketHandshake.validateServerResponse(response(base + [accept, ("Sec-WebSocket-Protocol", "x")]), key: key, offeredSubprotocols: [], compression: nil)
        }
        #expect(throws: WebSocketHandshakeError.self) {
            try WebSocketHandshake.validateServerResponse(response(base + [accept, ("Sec-WebSocket-Extensions", "permessage-deflate")]), key: key, offeredSubprotocols: [], compression: nil)
        }
        #expect(throws: WebSocketHandshakeError.unexpectedStatus(code: 404, reason: "Switching Protocols", body: "")) {
            try WebSocketHandshake.validateServerResponse(response(base, status: 404), key: key, offeredSubprotocols: [], compression: nil)
        }
    }

    @Test func responseParserLeavesFollowingBytesAndBoundsSize() throws {
        var bytes = ByteBuffer(string: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
        bytes.writeBytes([0x81, 0x00])
        let head = try #require(try HTTPResponseHeadParser(maxSize: 1024).parse(&bytes))
        #expect(head.status == 101 && head.values("upgrade") == ["websocket"])
        #expect(hexString(bytes) == "81 00")
        var huge = ByteBuffer(string: "HTTP/1.1 101 OK\r\nX: " + String(repeating: "a", count: 2000))
        #expect(throws: WebSocketHandshakeError.responseTooLarge(limit: 1024)) {
            try HTTPResponseHeadParser(maxSize: 1024).parse(&huge)
        }
    }

    @Test func parsesWebSocketURLs() throws {
        let secure = try WebSocketURL("wss://play.example.com/ws?token=a%20b")
        #expect(secure.secure && secure.port == 443 && secure.target == "/ws?token=a%20b" && secure.hostHeader == "play.example.com")
        let plain = try WebSocketURL("ws://127.0.0.1:9001")
        #expect(!plain.secure && plain.port == 9001 && plain.target == "/" && plain.hostHeader == "127.0.0.1:9001")
        let v6 = try WebSocketURL("ws://[::1]:8080/echo")
        #expect(v6.host == "::1" && v6.hostHeader == "[::1]:8080")
        #expect(throws: WebSocketClientError.self) { try WebSocketURL("http://example.com") }
        #expect(throws: WebSocketClientError.self) { try WebSocketURL("ws://") }
    }
}
