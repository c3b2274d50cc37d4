import NIOCore
import ParlorTestSupport
import SystemTLS
import Testing
@testable import WebSocketCore

/// wss:// over the system OpenSSL: our client and our server, with a test CA made at test time.
@Suite struct SecureSocketTests {
    private func serverTLS() throws -> TLSServerContext {
        let pki = try TestPKI.get()
        return try TLSServerContext(
            configuration: TLSServerConfiguration(certificateChainPath: pki.serverCertificate, privateKeyPath: pki.serverKey))
    }

    private func trustingTestCA() throws -> TLSClientContext {
        try TLSClientContext(configuration: TLSClientConfiguration(trustRoots: .file(try TestPKI.get().caCertificate)))
    }

    @Test(arguments: [true, false])
    func echoesOverWSSWithAndWithoutCompression(compress: Bool) async throws {
        let tls = try serverTLS()
        let trust = try trustingTestCA()
        try await withServer(configure: { $0.tls = tls }) { port, _ in
            let config = clientConfiguration {
                $0.tls = trust
                if !compress { $0.webSocket.compression = nil }
            }
            try await WebSocketClient.connect(to: "wss://localhost:\(port)/echo", configuration: config) { ws in
                #expect((ws.compression != nil) == compress)
                var replies = ws.inbound.makeAsyncIterator()
                let big = String(repeating: "secure parlor ", count: 50_000)
                try await ws.send(text: "Hello over TLS")
                try await ws.send(text: big)
                #expect(try await replies.next() == .text("Hello over TLS"))
                #expect(try await replies.next()?.text == big)
                await ws.close(code: .normalClosure, reason: "done")
                #expect(await ws.closeStatus.code == .normalClosure)
            }
        }
    }

    /// The certificate names 127.0.0.1 as an IP address entry: connecting by IP verifies against it.
    @Test func connectsByIPAddressAndVerifiesTheIPEntry() async throws {
        let tls = try serverTLS()
        let trust = try trustingTestCA()
        try await withServer(configure: { $0.tls = tls }) { port, _ in
            let reply = try await WebSocketClient.connect(to: "wss://127.0.0.1:\(port)/echo", configuration: clientConfiguration { $0.tls = trust }) { ws in
                try await ws.send(text: "by address")
                var replies = ws.inbound.makeAsyncIterator()
                return try await replies.next()
            }
            #expect(reply == .text("by address"))
        }
    }

    @Test func anUntrustedServerCertificateFailsTheConnect() async throws {
        let tls = try serverTLS()
        try await withServer(configure: { $0.tls = tls }) { port, _ in
            // The system CA store does not know the test CA.
            let config = clientConfiguration { $0.tls = try? TLSClientContext(configuration: TLSClientConfiguration()) }
            await #expect(throws: (any Error).self) {
                try await WebSocketClient.connect(to: "wss://localhost:\(port)/echo", configuration: config) { _ in }
            }
            // A plain ws:// client against the TLS port gets no WebSocket either.
            await #expect(throws: (any Error).self) {
                try await WebSocketClient.connect(to: "ws://127.0.0.1:\(port)/echo", configuration: clientConfiguration { $0.handshakeTimeout = .seconds(2) }) { _ in }
            }
        }
    }

    @Test func httpsResponsesCarryHSTSAndSecurityHeaders() async throws {
        let tls = try serverTLS()
        let pki = try TestPKI.get()
        try await withServer(configure: { $0.tls = tls }) { port, _ in
            let curl = try await ExternalProcess(["curl", "-s", "-i", "--cacert", pki.caCertificate, "https://localhost:\(port)/healthz"]).wait()
            #expect(curl.stdout.hasPrefix("HTTP/1.1 200 OK"), "\(curl.stdout) \(curl.stderr)")
            #expect(curl.stdout.contains("Strict-Transport-Security: max-age=31536000"))
            #expect(curl.stdout.contains("X-Content-Type-Options: nosniff"))
        }
        try await withServer { port, _ in
            let raw = try await RawConnection(port: port)
            try await raw.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await raw.waitUntil { raw.receivedText.contains("\r\n\r\n") })
            #expect(raw.receivedText.contains("X-Frame-Options: DENY"))
            #expect(!raw.receivedText.contains("Strict-Transport-Security"))  // not over plain HTTP
        }
    }
}
