import ParlorTestSupport
import Foundation
import NIOCore
import NIOPosix
import SystemTLS
import Testing

/// Our client handler against our server handler over real loopback sockets.
@Suite(.timeLimit(.minutes(2))) struct TLSLoopbackTests {
    let pki: TestPKI
    let serverContext: TLSServerContext
    let trustingClient: TLSClientContext

    init() throws {
        pki = try TestPKI.get()
        serverContext = try TLSServerContext(
            configuration: TLSServerConfiguration(
                certificateChainPath: pki.serverCertificate, privateKeyPath: pki.serverKey))
        trustingClient = try TLSClientContext(
            configuration: TLSClientConfiguration(trustRoots: .file(pki.caCertificate)))
    }

    @Test func handshakeALPNSNIDataBothWaysAndCleanClose() async throws {
        let server = try await TLSEchoServer.start(serverContext)
        let client = Recorder()
        // Written as soon as the handler is added (as WebSocketCore's client does), long before the handshake can
        // have finished: buffered, then sent first.
        let greeting = Array("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
        let channel = try await connect(
            port: server.port, tls: (trustingClient, "localhost"), recorder: client, writeOnAdd: greeting)
        try await client.waitUntil("greeting echo") { $0.received.count >= greeting.count }

        let clientEvents = client.snapshot.handshakes
        #expect(clientEvents.count == 1)
        if case .handshakeCompleted(let alpn, let name, let version)? = clientEvents.first {
            #expect(alpn == "http/1.1")
            #expect(name == "localhost")
            #expect(version == "TLSv1.3")
        }
        try await server.recorder.waitUntil("server handshake") { $0.handshakes.count == 1 }
        #expect(
            server.recorder.snapshot.handshakes
                == [.handshakeCompleted(negotiatedALPN: "http/1.1", serverName: "localhost", protocolVersion: "TLSv1.3")])

        // 1 MiB each way (the echo sends it back), in one write whose promise completes once written.
        let big = patternBytes(count: 1 << 20)
        try await waitFor(channel.writeAndFlush(ByteBuffer(bytes: big)))
        try await client.waitUntil("1 MiB echo") { $0.received.count >= greeting.count + big.count }
        let received = client.snapshot.received
        #expect(received.count == greeting.count + big.count)
        #expect(Array(received[..<greeting.count]) == greeting)
        #expect(Array(received[greeting.count...]) == big)
        #expect(server.recorder.snapshot.received.count == greeting.count + big.count)

        // Clean close: our close_notify reaches the server, which answers and closes without error.
        try await waitFor(channel.close())
        try await server.recorder.waitUntil("server connection closed") { $0.inactive == 1 }
        try await client.waitUntil("client inactive") { $0.inactive == 1 }
        #expect(server.recorder.snapshot.tlsErrors.isEmpty)
        #expect(server.recorder.snapshot.otherErrors.isEmpty)
        #expect(client.snapshot.tlsErrors.isEmpty)
        #expect(client.snapshot.otherErrors.isEmpty)
        try await server.stop()
    }

    @Test func serverInitiatedCloseReachesClientAsCleanClose() async throws {
        let server = try await TLSEchoServer.start(serverContext, closeOnBye: true)
        let client = Recorder()
        let channel = try await connect(port: server.port, tls: (trustingClient, "localhost"), recorder: client)
        try await waitFor(channel.writeAndFlush(ByteBuffer(bytes: Array("one\nBYE\n".utf8))))
        try await client.waitUntil("client closed by server") { $0.inactive == 1 }
        #expect(client.snapshot.received == Array("one\nBYE\n".utf8))
        #expect(client.snapshot.tlsErrors.isEmpty)
        try await server.recorder.waitUntil("server inactive") { $0.inactive == 1 }
        #expect(server.recorder.snapshot.tlsErrors.isEmpty)
        try await waitFor(channel.closeFuture)
        try await server.stop()
    }

    @Test func manyWritesBeforeHandshakeKeepTheirOrderAndPromises() async throws {
        let server = try await TLSEchoServer.start(serverContext)
        let client = Recorder()
        // Written in channelActive, while the handshake is in progress.
        let writes = (0..<200).map { Array("message \($0);".utf8) }
        let expected = writes.flatMap { $0 }
        let channel = try await connect(
            port: server.port, tls: (trustingClient, "localhost"), recorder: client, initialWrites: writes)
        // Written once connected; whether before or after the handshake finished, it must come after those.
        try await waitFor(channel.writeAndFlush(ByteBuffer(bytes: Array("last".utf8))))
        try await client.waitUntil("all echoed") { $0.received.count >= expected.count + 4 }
        #expect(client.snapshot.received == expected + Array("last".utf8))
        #expect(client.snapshot.writesSucceeded == 200)
        #expect(client.snapshot.writesFailed == 0)
        try await waitFor(channel.close())
        try await server.stop()
    }

    @Test func writesBeyondTheHandshakeBufferLimitFailTheConnection() async throws {
        var configuration = TLSClientConfiguration(trustRoots: .file(pki.caCertificate))
        configuration.maximumBufferedHandshakeWrites = 1000
        let limited = try TLSClientContext(configuration: configuration)
        let server = try await TLSEchoServer.start(serverContext)

        // Within the limit: delivered.
        let fits = Recorder()
        let ok = try await connect(
            port: server.port, tls: (limited, "localhost"), recorder: fits,
            initialWrites: [[UInt8]](repeating: Array(repeating: 0x61, count: 500), count: 2))
        try await fits.waitUntil("echo") { $0.received.count >= 1000 }
        #expect(fits.snapshot.writesSucceeded == 2)
        try await waitFor(ok.close())

        // Past it: every buffered write fails, and so does the connection.
        let client = Recorder()
        _ = try await connect(
            port: server.port, tls: (limited, "localhost"), recorder: client,
            initialWrites: [[UInt8]](repeating: Array(repeating: 0x61, count: 400), count: 3))
        try await client.waitUntil("connection failed") { $0.inactive == 1 && $0.writesFailed == 3 }
        #expect(client.snapshot.writesSucceeded == 0)
        #expect(client.snapshot.tlsErrors.map(\.kind) == [.bufferLimitExceeded])
        #expect(client.snapshot.received.isEmpty)
        try await server.stop()
    }

    @Test func worksWithAutoReadOff() async throws {
        let server = try await TLSEchoServer.start(serverContext, childAutoRead: false)
        let client = Recorder()
        let channel = try await connect(port: server.port, tls: (trustingClient, "localhost"), recorder: client)
        let payload = patternBytes(count: 300_000, seed: 7)
        try await waitFor(channel.writeAndFlush(ByteBuffer(bytes: payload)))
        try await client.waitUntil("echo with autoRead off") { $0.received.count >= payload.count }
        #expect(client.snapshot.received == payload)
        try await waitFor(channel.close())
        try await server.recorder.waitUntil("server closed") { $0.inactive == 1 }
        #expect(server.recorder.snapshot.tlsErrors.isEmpty)
        try await server.stop()
    }

    @Test func clientVerifiesIPAddressLiteralWithoutSNI() async throws {
        let server = try await TLSEchoServer.start(serverContext)
        let client = Recorder()
        let channel = try await connect(port: server.port, tls: (trustingClient, "127.0.0.1"), recorder: client)
        try await waitFor(channel.writeAndFlush(ByteBuffer(bytes: Array("ip".utf8))))
        try await client.waitUntil("echo") { $0.received.count >= 2 }
        try await server.recorder.waitUntil("server handshake") { $0.handshakes.count == 1 }
        if case .handshakeCompleted(_, let name, _)? = server.recorder.snapshot.handshakes.first {
            #expect(name == nil)  // no SNI for an IP literal (RFC 6066 §3)
        }
        try await waitFor(channel.close())
        try await server.stop()
    }

    // MARK: Client verification failures

    @Test func systemRootsRejectSelfSignedServer() async throws {
        let selfSigned = try TLSServerContext(
            configuration: TLSServerConfiguration(
                certificateChainPath: pki.selfSignedCertificate, privateKeyPath: pki.selfSignedKey))
        let server = try await TLSEchoServer.start(selfSigned)
        let systemClient = try TLSClientContext(configuration: TLSClientConfiguration(trustRoots: .system))
        let error = try await failingHandshake(port: server.port, client: systemClient, hostname: "localhost")
        #expect(error.kind == .certificateVerificationFailed)
        #expect(error.verifyResult == "self-signed certificate")
        #expect(error.description.contains("self-signed certificate"))
        #expect(error.description.contains("certificate verify failed"))
        // The server hears about it as the client's alert.
        try await server.recorder.waitUntil("server failure") { !$0.tlsErrors.isEmpty }
        #expect(server.recorder.snapshot.tlsErrors.first?.kind == .handshakeFailed)
        #expect(server.recorder.snapshot.handshakes.isEmpty)
        try await server.stop()
    }

    @Test func systemRootsRejectServerFromUnknownCA() async throws {
        let server = try await TLSEchoServer.start(serverContext)
        let systemClient = try TLSClientContext(configuration: TLSClientConfiguration())
        let error = try await failingHandshake(port: server.port, client: systemClient, hostname: "localhost")
        #expect(error.kind == .certificateVerificationFailed)
        #expect(error.description.contains("unable to get local issuer certificate"))
        try await server.stop()
    }

    @Test func testCARejectsCertificateItDidNotSign() async throws {
        let selfSigned = try TLSServerContext(
            configuration: TLSServerConfiguration(
                certificateChainPath: pki.selfSignedCertificate, privateKeyPath: pki.selfSignedKey))
        let server = try await TLSEchoServer.start(selfSigned)
        let error = try await failingHandshake(port: server.port, client: trustingClient, hostname: "localhost")
        #expect(error.kind == .certificateVerificationFailed)
        #expect(error.verifyResult == "self-signed certificate")
        try await server.stop()
    }

    @Test func hostnameMismatchFails() async throws {
        let server = try await TLSEchoServer.start(serverContext)
        let error = try await failingHandshake(port: server.port, client: trustingClient, hostname: "parlor.example")
        #expect(error.kind == .certificateVerificationFailed)
        #expect(error.verifyResult == "hostname mismatch")
        let ipError = try await failingHandshake(port: server.port, client: trustingClient, hostname: "::1")
        #expect(ipError.verifyResult == "IP address mismatch")
        try await server.stop()
    }

    @Test func verifyPeerFalseAcceptsAnyCertificate() async throws {
        let selfSigned = try TLSServerContext(
            configuration: TLSServerConfiguration(
                certificateChainPath: pki.selfSignedCertificate, privateKeyPath: pki.selfSignedKey))
        let server = try await TLSEchoServer.start(selfSigned)
        let lax = try TLSClientContext(configuration: TLSClientConfiguration(trustRoots: .system, verifyPeer: false))
        for hostname in ["parlor.example", nil] {
            let client = Recorder()
            let channel = try await connect(port: server.port, tls: (lax, hostname), recorder: client)
            try await waitFor(channel.writeAndFlush(ByteBuffer(bytes: Array("ok".utf8))))
            try await client.waitUntil("echo") { $0.received.count >= 2 }
            #expect(client.snapshot.tlsErrors.isEmpty)
            try await waitFor(channel.close())
        }
        try await server.stop()
    }

    // MARK: Hostile input

    @Test func plaintextHTTPToTLSPortIsCleanErrorAndClose() async throws {
        let server = try await TLSEchoServer.start(serverContext)
        let raw = Recorder()
        let channel = try await connect(port: server.port, tls: nil, recorder: raw)
        try await waitFor(channel.writeAndFlush(
            ByteBuffer(bytes: Array("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
        ))
        try await raw.waitUntil("server closes the connection") { $0.inactive == 1 }
        try await server.recorder.waitUntil("server error") { !$0.tlsErrors.isEmpty && $0.inactive == 1 }
        let error = try #require(server.recorder.snapshot.tlsErrors.first)
        #expect(error.kind == .handshakeFailed)
        #expect(error.description.contains("http request") || error.description.contains("wrong version number"))
        // Whatever the server sent back is at most a TLS alert record, never echoed plaintext.
        let reply = raw.snapshot.received
        #expect(reply.isEmpty || reply.first == 0x15)
        #expect(server.recorder.snapshot.received.isEmpty)

        try await assertServerStillServes(server)
        try await server.stop()
    }

    @Test func randomGarbageIsCleanErrorAndClose() async throws {
        let server = try await TLSEchoServer.start(serverContext)
        for (index, garbage) in [
            patternBytes(count: 100_000, seed: 42),
            [0x16, 0x03, 0x01, 0xFF, 0xFF] + patternBytes(count: 70_000, seed: 3),  // a "handshake record" of junk
            [0x80, 0x80, 0x01, 0x03, 0x01] + patternBytes(count: 200, seed: 5),  // an SSLv2-style header
            [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28],  // a fatal alert before any hello
        ].enumerated() {
            let raw = Recorder()
            let channel = try await connect(port: server.port, tls: nil, recorder: raw)
            channel.writeAndFlush(ByteBuffer(bytes: garbage), promise: nil)
            try await raw.waitUntil("server closes connection \(index)") { $0.inactive == 1 }
            try await server.recorder.waitUntil("server error \(index)") { $0.inactive == index + 1 }
        }
        let errors = server.recorder.snapshot.tlsErrors
        #expect(errors.count == 4)
        #expect(errors.allSatisfy { $0.kind == .handshakeFailed && $0.reason.contains("error:") }, "\(errors)")
        #expect(server.recorder.snapshot.handshakes.isEmpty)
        try await assertServerStillServes(server)
        try await server.stop()
    }

    @Test func clientHelloCutShortThenEOFIsHandshakeFailure() async throws {
        let server = try await TLSEchoServer.start(serverContext)
        let raw = Recorder()
        let channel = try await connect(port: server.port, tls: nil, recorder: raw)
        // A record announcing a ClientHello whose body never fully arrives, then the client's end of stream.
        try await waitFor(channel.writeAndFlush(ByteBuffer(bytes: [0x16, 0x03, 0x03, 0x00, 0x05, 0x01, 0x00, 0x00, 0x01])))
        try await waitFor(channel.close())
        try await server.recorder.waitUntil("server error") { !$0.tlsErrors.isEmpty && $0.inactive == 1 }
        let errors = server.recorder.snapshot.tlsErrors
        #expect(errors.map(\.kind) == [.handshakeFailed])
        #expect(errors.first?.reason == "the connection closed during the handshake")
        try await server.stop()
    }

    @Test func silentClientTimesOut() async throws {
        var configuration = TLSServerConfiguration(
            certificateChainPath: pki.serverCertificate, privateKeyPath: pki.serverKey)
        configuration.handshakeTimeout = .milliseconds(200)
        let server = try await TLSEchoServer.start(try TLSServerContext(configuration: configuration))
        let raw = Recorder()
        _ = try await connect(port: server.port, tls: nil, recorder: raw)
        try await raw.waitUntil("server drops the silent client", timeout: .seconds(5)) { $0.inactive == 1 }
        #expect(server.recorder.snapshot.tlsErrors.map(\.kind) == [.handshakeTimeout])
        try await server.stop()
    }

    @Test func peerVanishingMidStreamIsReportedAsTruncation() async throws {
        // After the handshake and some data, the client's TCP connection is closed underneath its TLS handler,
        // so no close_notify is sent: the server must report possible truncation.
        let server = try await TLSEchoServer.start(serverContext)
        let client = Recorder()
        let channel = try await connect(port: server.port, tls: (trustingClient, "localhost"), recorder: client)
        try await waitFor(channel.writeAndFlush(ByteBuffer(bytes: Array("hello".utf8))))
        try await client.waitUntil("echo") { $0.received.count >= 5 }
        try await waitFor(channel.eventLoop.submit {
            let context = try channel.pipeline.syncOperations.context(handlerType: TLSHandler.self)
            // Closing from this handler's context goes to the head, bypassing TLSHandler's own close.
            context.close(promise: nil)
        })
        try await server.recorder.waitUntil("server sees the truncation") { !$0.tlsErrors.isEmpty }
        #expect(server.recorder.snapshot.tlsErrors.map(\.kind) == [.uncleanShutdown])
        #expect(server.recorder.snapshot.tlsErrors.first?.description.contains("close_notify") == true)
        try await server.stop()
    }

    @Test func forgedRecordAfterHandshakeIsProtocolErrorOnBothSides() async throws {
        let server = try await TLSEchoServer.start(serverContext)
        let client = Recorder()
        let channel = try await connect(port: server.port, tls: (trustingClient, "localhost"), recorder: client)
        try await waitFor(channel.writeAndFlush(ByteBuffer(bytes: Array("hello".utf8))))
        try await client.waitUntil("echo") { $0.received.count >= 5 }
        // An application-data record that was never encrypted by the client's keys, written below its TLS handler.
        let forged: [UInt8] = [0x17, 0x03, 0x03, 0x00, 0x30] + patternBytes(count: 0x30, seed: 9)
        try await waitFor(channel.eventLoop.submit {
            let context = try channel.pipeline.syncOperations.context(handlerType: TLSHandler.self)
            context.writeAndFlush(NIOAny(ByteBuffer(bytes: forged)), promise: nil)
        })
        try await server.recorder.waitUntil("server rejects the record") { !$0.tlsErrors.isEmpty && $0.inactive == 1 }
        let serverError = try #require(server.recorder.snapshot.tlsErrors.first)
        #expect(serverError.kind == .protocolError)
        #expect(serverError.reason.contains("bad record mac") || serverError.reason.contains("decryption failed"), "\(serverError)")
        // The server's alert reaches the client, which reports it and closes.
        try await client.waitUntil("client closed") { $0.inactive == 1 }
        let clientError = try #require(client.snapshot.tlsErrors.first)
        #expect(clientError.kind == .protocolError)
        #expect(clientError.reason.contains("alert"), "\(clientError)")
        try await server.stop()
    }

    // MARK: Helpers

    private func failingHandshake(port: Int, client: TLSClientContext, hostname: String) async throws -> TLSError {
        let recorder = Recorder()
        _ = try await connect(port: port, tls: (client, hostname), recorder: recorder)
        try await recorder.waitUntil("client handshake failure") { !$0.tlsErrors.isEmpty && $0.inactive == 1 }
        #expect(recorder.snapshot.handshakes.isEmpty)
        #expect(recorder.snapshot.tlsErrors.count == 1)
        return recorder.snapshot.tlsErrors[0]
    }

    private func assertServerStillServes(_ server: TLSEchoServer) async throws {
        let client = Recorder()
        let channel = try await connect(port: server.port, tls: (trustingClient, "localhost"), recorder: client)
        try await waitFor(channel.writeAndFlush(ByteBuffer(bytes: Array("still here".utf8))))
        try await client.waitUntil("echo after garbage") { $0.received.count >= 10 }
        try await waitFor(channel.close())
    }
}
