import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing
@testable import WebSocketCore

/// Our client against our server over real loopback sockets.
@Suite struct SocketTests {
    @Test(arguments: [true, false])
    func echoesTextAndBinaryWithAndWithoutCompression(compress: Bool) async throws {
        try await withServer { port, _ in
            let config = clientConfiguration { if !compress { $0.webSocket.compression = nil } }
            try await WebSocketClient.connect(to: "ws://127.0.0.1:\(port)/echo", configuration: config) { ws in
                #expect((ws.compression != nil) == compress)
                var replies = ws.inbound.makeAsyncIterator()
                let big = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 20_000)  // 900 KB
                try await ws.send(text: "Hello")
                try await ws.send(binary: ByteBuffer(bytes: [0, 1, 2, 255]))
                try await ws.send(text: big)
                #expect(try await replies.next() == .text("Hello"))
                #expect(try await replies.next() == .binary(ByteBuffer(bytes: [0, 1, 2, 255])))
                #expect(try await replies.next()?.text == big)
            }
        }
    }

    /// Idle connections keep a small read buffer (NIO keeps one per connection), and it grows when
    /// reads fill it: a message far larger than the first buffer still arrives whole.
    @Test func connectionsStartWithTheConfiguredReadBufferAndGrowIt() async throws {
        let initial = NIOLockedValueBox<Int?>(nil)
        var app = TestApplication()
        app.serve = { ws, _ in
            let allocator = try? await ws.receiveBufferAllocator()
            initial.withLockedValue { $0 = allocator?.initial }
            do {
                for try await message in ws.inbound { try await ws.send(message) }
            } catch {}
        }
        try await withServer(configure: { $0.initialReceiveBufferSize = 256 }, application: app) { port, _ in
            let config = clientConfiguration {
                $0.webSocket.compression = nil
                $0.initialReceiveBufferSize = 128
            }
            try await WebSocketClient.connect(to: "ws://127.0.0.1:\(port)/", configuration: config) { ws in
                // The client's side too: it starts small, and the echo far larger than that arrives whole.
                #expect(try await ws.receiveBufferAllocator()?.initial == 128)
                let big = ByteBuffer(repeating: 0x5A, count: 48_000)
                try await ws.send(binary: big)
                var replies = ws.inbound.makeAsyncIterator()
                #expect(try await replies.next() == .binary(big))
            }
        }
        #expect(initial.withLockedValue { $0 } == 256)
    }

    @Test func clientInitiatedCloseCarriesCodeAndReasonToBothSides() async throws {
        let serverSaw = NIOLockedValueBox<WebSocketCloseStatus?>(nil)
        var app = TestApplication()
        app.serve = { ws, _ in
            do { for try await _ in ws.inbound {} } catch {}
            let status = await ws.closeStatus
            serverSaw.withLockedValue { $0 = status }
        }
        try await withServer(application: app) { port, _ in
            let status = try await WebSocketClient.connect(to: "ws://127.0.0.1:\(port)/", configuration: clientConfiguration()) { ws in
                await ws.close(code: WebSocketCloseCode(rawValue: 4001), reason: "game over")
                return await ws.closeStatus
            }
            #expect(status == WebSocketCloseStatus(code: WebSocketCloseCode(rawValue: 4001), reason: "game over"))
            let deadline = ContinuousClock.now + .seconds(5)
            while serverSaw.withLockedValue({ $0 }) == nil && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(serverSaw.withLockedValue { $0 } == WebSocketCloseStatus(code: WebSocketCloseCode(rawValue: 4001), reason: "game over"))
        }
    }

    @Test func serverInitiatedCloseEndsTheClientsInbound() async throws {
        var app = TestApplication()
        app.serve = { ws, _ in await ws.close(code: WebSocketCloseCode(rawValue: 4002), reason: "kicked") }
        try await withServer(application: app) { port, _ in
            let status = try await WebSocketClient.connect(to: "ws://127.0.0.1:\(port)/", configuration: clientConfiguration()) { ws in
                for try await _ in ws.inbound {}
                return await ws.closeStatus
            }
            #expect(status == WebSocketCloseStatus(code: WebSocketCloseCode(rawValue: 4002), reason: "kicked"))
        }
    }

    @Test func abruptDisconnectIs1006ToTheApplication() async throws {
        let serverSaw = NIOLockedValueBox<WebSocketCloseStatus?>(nil)
        var app = TestApplication()
        app.serve = { ws, _ in
            do { for try await _ in ws.inbound {} } catch {}
            let status = await ws.closeStatus
            serverSaw.withLockedValue { $0 = status }
        }
        try await withServer(application: app) { port, _ in
            let raw = try await RawConnection(port: port)
            try await raw.send(RawConnection.upgradeRequest())
            #expect(await raw.waitUntil { raw.receivedText.contains("\r\n\r\n") })
            await raw.close()
            #expect(await raw.waitUntil { serverSaw.withLockedValue { $0 } != nil })
            #expect(serverSaw.withLockedValue { $0 }?.code == .abnormalClosure)
        }
    }

    @Test func applicationChoosesASubprotocolAndSeesThePath() async throws {
        var app = TestApplication()
        app.decide = { request in
            guard request.path == "/ws", request.query["room"] == "A1B2C3" else { return .reject(.notFound, reason: "nothing here") }
            return .accept(subprotocol: request.requestedSubprotocols.first { $0.hasPrefix("parlor.") })
        }
        try await withServer(application: app) { port, _ in
            let config = clientConfiguration { $0.subprotocols = ["chat", "parlor.v1"] }
            let chosen = try await WebSocketClient.connect(to: "ws://127.0.0.1:\(port)/ws?room=A1B2C3", configuration: config) { $0.subprotocol }
            #expect(chosen == "parlor.v1")
        }
    }

    @Test func applicationRejectionReachesTheClientAsAStatusAndReason() async throws {
        var app = TestApplication()
        app.decide = { _ in .reject(.unauthorized, reason: "token is not valid") }
        try await withServer(application: app) { port, _ in
            do {
                try await WebSocketClient.connect(to: "ws://127.0.0.1:\(port)/", configuration: clientConfiguration()) { _ in }
                Issue.record("connect should have failed")
            } catch WebSocketClientError.handshake(.unexpectedStatus(let code, _, let body)) {
                #expect(code == 401)
                #expect(body == "token is not valid")
            }
        }
    }

    @Test func originAllowList() async throws {
        try await withServer(configure: { $0.allowedOrigins = .allowList(["https://play.example"]) }) { port, _ in
            let good = clientConfiguration { $0.headers = [("Origin", "https://play.example")] }
            try await WebSocketClient.connect(to: "ws://127.0.0.1:\(port)/", configuration: good) { _ in }
            let bad = clientConfiguration { $0.headers = [("Origin", "https://evil.example")] }
            await #expect(throws: WebSocketClientError.self) {
                try await WebSocketClient.connect(to: "ws://127.0.0.1:\(port)/", configuration: bad) { _ in }
            }
            let raw = try await RawConnection(port: port)
            try await raw.send(RawConnection.upgradeRequest(extra: "Origin: https://evil.example\r\n"))
            #expect(await raw.waitUntil { raw.isClosed })
            #expect(raw.receivedText.hasPrefix("HTTP/1.1 403 Forbidden"))
        }
    }

    @Test func badHandshakesGetProperStatusCodesWithReasons() async throws {
        try await withServer { port, _ in
            let cases: [(String, String)] = [
                (RawConnection.upgradeRequest().replacingOccurrences(of: "Sec-WebSocket-Version: 13", with: "Sec-WebSocket-Version: 8"),
                 "HTTP/1.1 426 Upgrade Required"),
                (RawConnection.upgradeRequest().replacingOccurrences(of: "dGhlIHNhbXBsZSBub25jZQ==", with: "short"),
                 "HTTP/1.1 400 Bad Request"),
                (RawConnection.upgradeRequest().replacingOccurrences(of: "Connection: Upgrade", with: "Connection: keep-alive"),
                 "HTTP/1.1 400 Bad Request"),
                (RawConnection.upgradeRequest().replacingOccurrences(of: "GET", with: "POST"), "HTTP/1.1 405 Method Not Allowed"),
            ]
            for (request, expected) in cases {
                let raw = try await RawConnection(port: port)
                try await raw.send(request)
                #expect(await raw.waitUntil { raw.isClosed })
                #expect(raw.receivedText.hasPrefix(expected), "\(raw.receivedText)")
            }
            let version = try await RawConnection(port: port)
            try await version.send(cases[0].0)
            #expect(await version.waitUntil { version.isClosed })
            #expect(version.receivedText.contains("Sec-WebSocket-Version: 13"))
            #expect(version.receivedText.contains("Only WebSocket version 13 is supported"))
        }
    }

    @Test func oversizedRequestHeadGets431() async throws {
        try await withServer(configure: { $0.maxHeaderSize = 4096 }) { port, _ in
            let raw = try await RawConnection(port: port)
            try await raw.send("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 8000) + "\r\n\r\n")
            #expect(await raw.waitUntil { raw.isClosed })
            #expect(raw.receivedText.hasPrefix("HTTP/1.1 431"))
        }
    }

    @Test func silentConnectionsAreClosedAfterTheHandshakeTimeout() async throws {
        try await withServer(configure: { $0.handshakeTimeout = .milliseconds(200) }) { port, _ in
            let raw = try await RawConnection(port: port)
            // Never finishes its head. On a slow machine the server may already have hung up before this
            // write, which is the behaviour under test too.
            try? await raw.send("GET / HTTP/1.1\r\nHost: x\r\n")
            #expect(await raw.waitUntil { raw.isClosed })
        }
    }

    /// Past `maxConnections` new connections are closed at once, so the process never runs out of
    /// descriptors; the ones already open are unaffected, and room frees up as they go.
    @Test func connectionsPastTheLimitAreClosedAtOnce() async throws {
        try await withServer(configure: { $0.maxConnections = 2 }) { port, server in
            let first = try await RawConnection(port: port)
            let second = try await RawConnection(port: port)
            #expect(await first.waitUntil { server.connectionCount == 2 })
            let third = try await RawConnection(port: port)
            #expect(await third.waitUntil { third.isClosed })
            #expect(server.rejectedConnectionCount == 1)
            try await first.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await first.waitUntil { first.receivedText.contains("200 OK") })
            await second.close()
            #expect(await first.waitUntil { server.connectionCount == 1 })
            let fourth = try await RawConnection(port: port)
            try await fourth.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await fourth.waitUntil { fourth.receivedText.contains("200 OK") })
        }
    }

    @Test func plainHTTPWithKeepAliveAndPipelining() async throws {
        try await withServer { port, _ in
            let raw = try await RawConnection(port: port)
            try await raw.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nPOST /nope HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
            #expect(await raw.waitUntil { raw.receivedText.contains("body 3 bytes") })
            let text = raw.receivedText
            #expect(text.hasPrefix("HTTP/1.1 200 OK"))
            #expect(text.contains("HTTP/1.1 404 Not Found"))
            #expect(!raw.isClosed)
            await raw.close()
        }
    }

    /// The module names no product: a `Server` header goes out only when the application configures one.
    @Test func serverHeaderIsSentOnlyWhenConfigured() async throws {
        try await withServer(configure: { $0.serverHeader = "Example/1.0" }) { port, _ in
            let raw = try await RawConnection(port: port)
            try await raw.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await raw.waitUntil { raw.receivedText.contains("\r\n\r\n") })
            #expect(raw.receivedText.contains("\r\nServer: Example/1.0\r\n"), "\(raw.receivedText)")
        }
        try await withServer { port, _ in
            let raw = try await RawConnection(port: port)
            try await raw.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await raw.waitUntil { raw.receivedText.contains("\r\n\r\n") })
            #expect(raw.receivedText.hasPrefix("HTTP/1.1 200 OK"))
            #expect(!raw.receivedText.lowercased().contains("\r\nserver:"), "\(raw.receivedText)")
        }
    }

    @Test func bytesSentRightAfterTheUpgradeRequestAreNotLost() async throws {
        try await withServer { port, _ in
            let raw = try await RawConnection(port: port)
            var bytes = ByteBuffer(string: RawConnection.upgradeRequest())
            var frame = clientFrame(.text, text: "early bird")
            bytes.writeBuffer(&frame)
            try await raw.send(bytes)
            #expect(await raw.waitUntil { raw.receivedText.hasSuffix("early bird") })
            #expect(raw.receivedText.hasPrefix("HTTP/1.1 101 Switching Protocols"))
        }
    }

    @Test func deadPeersAreDroppedByTheIdleTimeout() async throws {
        try await withServer(configure: {
            $0.webSocket.pingInterval = .milliseconds(100)
            $0.webSocket.idleTimeout = .milliseconds(300)
        }) { port, _ in
            let raw = try await RawConnection(port: port)
            try await raw.send(RawConnection.upgradeRequest())
            // The raw peer never answers the pings it is sent.
            #expect(await raw.waitUntil { raw.isClosed })
            let bytes = Array(raw.received.readableBytesView)
            #expect(bytes.contains(0x89))  // it was pinged
            #expect(raw.receivedText.contains("idle timeout"))
        }
    }

    @Test func clientHandshakeTimesOutOnASilentServer() async throws {
        let silent = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let config = clientConfiguration { $0.handshakeTimeout = .milliseconds(200) }
        do {
            try await WebSocketClient.connect(to: "ws://127.0.0.1:\(silent.localAddress!.port!)/", configuration: config) { _ in }
            Issue.record("connect should have timed out")
        } catch WebSocketClientError.handshake(.timedOut) {}
        try await silent.close()
    }

    /// A client that stops reading cannot make the server queue without bound: `send` suspends once the
    /// channel is over its high-water mark, so our queue never holds more than that plus one message
    /// (what the kernel's socket buffers hold is not our memory, and on loopback it auto-tunes to MBs).
    @Test func slowReaderSuspendsTheSenderInsteadOfQueueing() async throws {
        let maxQueued = NIOLockedValueBox(0)
        let chunkSize = 64 * 1024
        var app = TestApplication()
        app.serve = { ws, _ in
            let chunk = ByteBuffer(repeating: 0x5A, count: chunkSize)
            for _ in 0..<1_000 {  // 64 MB if nothing pushed back
                guard (try? await ws.send(binary: chunk)) != nil else { return }
                let queued = await ws.bufferedOutboundBytes
                maxQueued.withLockedValue { $0 = max($0, queued) }
            }
        }
        var serverConfiguration = WebSocketServerConfiguration()
        try await withServer(configure: { $0.webSocket.compression = nil; serverConfiguration = $0 }, application: app) { port, _ in
            let config = clientConfiguration { $0.webSocket.compression = nil; $0.webSocket = $0.webSocket.withMessageLimit(1 << 20) }
            try await WebSocketClient.connect(to: "ws://127.0.0.1:\(port)/", configuration: config) { ws in
                try await Task.sleep(for: .seconds(1))  // not reading
                var received = 0
                for try await _ in ws.inbound {
                    received += 1
                    if received == 1_000 { break }
                }
                #expect(received == 1_000)
            }
        }
        let bound = serverConfiguration.webSocket.outboundHighWaterMark + chunkSize + WebSocketFrameEncoder.maxHeaderSize
        #expect(maxQueued.withLockedValue { $0 } > 0, "the reader was slow, so something must have queued")
        #expect(maxQueued.withLockedValue { $0 } <= bound)
    }

    @Test func gracefulShutdownLetsHandlersFinishThenSends1001() async throws {
        let upgraded = NIOLockedValueBox(0)
        var app = TestApplication()
        app.serve = { ws, _ in
            upgraded.withLockedValue { $0 += 1 }
            // One handler watches for shutdown and says goodbye itself; the echo default would be closed
            // by the server after the grace period.
            if ws.subprotocol == "polite" {
                await ws.shutdown.wait()
                await ws.close(code: .goingAway, reason: "see you soon")
            } else {
                do { for try await message in ws.inbound { try await ws.send(message) } } catch {}
            }
        }
        let server = WebSocketServer(
            configuration: { var c = WebSocketServerConfiguration(); c.port = 0; c.shutdownGracePeriod = .milliseconds(300); return c }(),
            application: { var a = app; a.decide = { .accept(subprotocol: $0.requestedSubprotocols.first) }; return a }())
        try await withThrowingTaskGroup(of: WebSocketCloseStatus?.self) { group in
            group.addTask { try await server.run(); return nil }
            let port = try await server.localAddress().port!
            for name in ["polite", "stubborn"] {
                group.addTask {
                    try await WebSocketClient.connect(
                        to: "ws://127.0.0.1:\(port)/", configuration: clientConfiguration { $0.subprotocols = [name] }
                    ) { ws in
                        for try await _ in ws.inbound {}
                        return await ws.closeStatus
                    }
                }
            }
            // Shut down only once both clients are being served.
            while upgraded.withLockedValue({ $0 }) < 2 { try await Task.sleep(for: .milliseconds(10)) }
            server.beginGracefulShutdown()
            var statuses: [WebSocketCloseStatus] = []
            for try await status in group { if let status { statuses.append(status) } }
            #expect(statuses.contains(WebSocketCloseStatus(code: .goingAway, reason: "see you soon")))
            #expect(statuses.contains(WebSocketCloseStatus(code: .goingAway, reason: "server shutting down")))
        }
        // After shutdown nothing listens any more.
        await #expect(throws: (any Error).self) {
            try await WebSocketClient.connect(to: "ws://127.0.0.1:\(try await server.localAddress().port!)/") { _ in }
        }
    }
}
