import ParlorTestSupport
import Foundation
import NIOCore
import NIOPosix
import SystemTLS
import Testing

/// Our handlers against TLS implementations we did not write: the `openssl s_client` CLI and Python's `ssl`.
@Suite(.timeLimit(.minutes(2))) struct TLSInteropTests {
    let pki: TestPKI
    let serverContext: TLSServerContext

    /// The TLS 1.2 suites the server may choose.
    static let allowedTLS12Ciphers: Set<String> = [
        "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-GCM-SHA384",
        "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
    ]

    init() throws {
        pki = try TestPKI.get()
        serverContext = try TLSServerContext(
            configuration: TLSServerConfiguration(
                certificateChainPath: pki.serverCertificate, privateKeyPath: pki.serverKey))
    }

    // MARK: openssl s_client

    private func sClient(port: Int, _ extra: [String], input: String) async throws -> ExternalProcess.Result {
        try await ExternalProcess.run(
            ["openssl", "s_client", "-connect", "127.0.0.1:\(port)"] + extra,
            stdin: Data(input.utf8), timeout: .seconds(20))
    }

    @Test func opensslClientTLS13WithALPNAndEcho() async throws {
        let server = try await TLSEchoServer.start(serverContext, closeOnBye: true)
        let result = try await sClient(
            port: server.port,
            [
                "-alpn", "http/1.1", "-servername", "localhost", "-CAfile", pki.caCertificate,
                "-verify_return_error", "-ign_eof",
            ],
            input: "hello parlor\nBYE\n")
        let output = result.stdout + result.stderr
        #expect(result.status == 0, "\(output)")
        #expect(output.contains("New, TLSv1.3, Cipher is TLS_AES_256_GCM_SHA384"), "\(output)")
        #expect(output.contains("ALPN protocol: http/1.1"), "\(output)")
        #expect(output.contains("Verify return code: 0 (ok)"), "\(output)")
        #expect(output.contains("hello parlor\nBYE\n"), "\(output)")
        #expect(output.contains("Compression: NONE"), "\(output)")
        try await server.recorder.waitUntil("server closed") { $0.inactive == 1 }
        #expect(
            server.recorder.snapshot.handshakes
                == [.handshakeCompleted(negotiatedALPN: "http/1.1", serverName: "localhost", protocolVersion: "TLSv1.3")])
        #expect(server.recorder.snapshot.tlsErrors.isEmpty)
        try await server.stop()
    }

    /// Starts s_client with its standard input as a pipe, and waits for the handshake. s_client acts on commands
    /// ("K", "R") only in this mode, and only when a read of its input starts with one: so each line is sent only
    /// once the previous one has had its effect.
    private func interactiveSClient(port: Int, _ extra: [String]) async throws -> ExternalProcess {
        let process = try ExternalProcess(
            ["openssl", "s_client", "-connect", "127.0.0.1:\(port)"] + extra, interactive: true)
        try await process.waitForOutput("the handshake") { stdout, _ in stdout.contains("Verify return code") }
        return process
    }

    @Test func opensslClientKeyUpdateIsAnswered() async throws {
        let server = try await TLSEchoServer.start(serverContext)
        let client = try await interactiveSClient(
            port: server.port, ["-servername", "localhost", "-CAfile", pki.caCertificate])
        defer { client.terminate() }
        // s_client reports on standard error, and prints what it receives on standard output.
        try client.send("before key update\n")
        try await client.waitForOutput("first echo") { stdout, _ in stdout.contains("before key update\n") }
        // A TLS 1.3 KeyUpdate that also asks the server to update its keys.
        try client.send("K\n")
        try await client.waitForOutput("key update") { _, stderr in stderr.contains("KEYUPDATE") }
        try client.send("after key update\n")
        try await client.waitForOutput("second echo") { stdout, _ in stdout.contains("after key update\n") }
        try client.closeInput()  // s_client sends close_notify
        let result = try await client.wait()
        #expect(result.status == 0, "\(result.stderr)")
        try await server.recorder.waitUntil("server closed") { $0.inactive == 1 }
        #expect(server.recorder.snapshot.tlsErrors.isEmpty)
        #expect(server.recorder.snapshot.received == Array("before key update\nafter key update\n".utf8))
        try await server.stop()
    }

    @Test func opensslClientTLS12GetsECDHEWithAEAD() async throws {
        let server = try await TLSEchoServer.start(serverContext, closeOnBye: true)
        let result = try await sClient(
            port: server.port,
            ["-tls1_2", "-alpn", "http/1.1", "-servername", "localhost", "-CAfile", pki.caCertificate, "-ign_eof"],
            input: "twelve\nBYE\n")
        let output = result.stdout + result.stderr
        #expect(result.status == 0, "\(output)")
        // The server's order wins: AES-128-GCM before the client's preferred AES-256-GCM.
        #expect(output.contains("New, TLSv1.2, Cipher is ECDHE-RSA-AES128-GCM-SHA256"), "\(output)")
        #expect(output.contains("Secure Renegotiation IS supported"), "\(output)")
        #expect(output.contains("twelve\nBYE\n"), "\(output)")
        try await server.stop()
    }

    @Test func opensslClientRenegotiationIsRefused() async throws {
        let server = try await TLSEchoServer.start(serverContext)
        let client = try await interactiveSClient(port: server.port, ["-tls1_2", "-servername", "localhost"])
        defer { client.terminate() }
        try client.send("before\n")
        try await client.waitForOutput("echo") { stdout, _ in stdout.contains("before\n") }
        // "R" makes s_client renegotiate (TLS 1.2): the server declines with a no_renegotiation alert, and the
        // client gives up on the connection.
        try client.send("R\n")
        let result = try await client.wait()
        #expect(result.stderr.contains("RENEGOTIATING"), "\(result.stderr)")
        #expect(result.stderr.contains("no renegotiation"), "\(result.stderr)")
        try await server.recorder.waitUntil("server closed") { $0.inactive == 1 }
        #expect(server.recorder.snapshot.handshakes.count == 1)
        #expect(server.recorder.snapshot.tlsErrors.map(\.kind) == [.protocolError])
        try await server.stop()
    }

    @Test func opensslClientTLS11IsRejected() async throws {
        let server = try await TLSEchoServer.start(serverContext)
        // SECLEVEL=0 so that the client really offers TLS 1.1 rather than refusing locally.
        let result = try await sClient(
            port: server.port, ["-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0", "-servername", "localhost"], input: "")
        let output = result.stdout + result.stderr
        #expect(result.status != 0)
        #expect(output.contains("alert protocol version"), "\(output)")
        try await server.recorder.waitUntil("server error") { !$0.tlsErrors.isEmpty }
        let error = try #require(server.recorder.snapshot.tlsErrors.first)
        #expect(error.kind == .handshakeFailed)
        #expect(error.description.contains("unsupported protocol"), "\(error)")
        try await server.stop()
    }

    @Test(arguments: [
        "ECDHE-RSA-AES128-SHA256:ECDHE-RSA-AES256-SHA:ECDHE-RSA-AES128-SHA",  // CBC with ECDHE
        "AES128-GCM-SHA256:AES256-GCM-SHA384",  // static RSA key exchange
        "DHE-RSA-AES128-GCM-SHA256",  // finite-field DHE
    ])
    func opensslClientWithWeakTLS12CiphersIsRejected(cipherList: String) async throws {
        let server = try await TLSEchoServer.start(serverContext)
        let result = try await sClient(
            port: server.port, ["-tls1_2", "-cipher", cipherList, "-servername", "localhost"], input: "")
        let output = result.stdout + result.stderr
        #expect(result.status != 0)
        #expect(output.contains("alert handshake failure"), "\(output)")
        try await server.recorder.waitUntil("server error") { !$0.tlsErrors.isEmpty }
        #expect(server.recorder.snapshot.tlsErrors.first?.description.contains("no shared cipher") == true)
        try await server.stop()
    }

    @Test func opensslClientOfferingOnlyH2GetsNoApplicationProtocol() async throws {
        let server = try await TLSEchoServer.start(serverContext)
        let result = try await sClient(port: server.port, ["-alpn", "h2", "-servername", "localhost"], input: "")
        let output = result.stdout + result.stderr
        #expect(result.status != 0)
        #expect(output.contains("no application protocol"), "\(output)")
        try await server.recorder.waitUntil("server error") { !$0.tlsErrors.isEmpty }
        #expect(server.recorder.snapshot.handshakes.isEmpty)
        try await server.stop()
    }

    @Test func opensslClientWithoutALPNIsAccepted() async throws {
        let server = try await TLSEchoServer.start(serverContext, closeOnBye: true)
        let result = try await sClient(port: server.port, ["-servername", "localhost", "-ign_eof"], input: "BYE\n")
        let output = result.stdout + result.stderr
        #expect(result.status == 0, "\(output)")
        #expect(output.contains("No ALPN negotiated"), "\(output)")
        try await server.recorder.waitUntil("server handshake") { $0.handshakes.count == 1 }
        #expect(
            server.recorder.snapshot.handshakes
                == [.handshakeCompleted(negotiatedALPN: nil, serverName: "localhost", protocolVersion: "TLSv1.3")])
        try await server.stop()
    }

    // MARK: Python ssl as the client

    static let pythonClient = """
        import json, socket, ssl, sys
        port, cafile, mode = int(sys.argv[1]), sys.argv[2], sys.argv[3]
        ctx = ssl.create_default_context(cafile=cafile)
        ctx.set_alpn_protocols(["h2"] if mode == "h2only" else ["http/1.1"])
        if mode == "tls12":
            ctx.maximum_version = ssl.TLSVersion.TLSv1_2
        out = {}
        try:
            raw = socket.create_connection(("127.0.0.1", port), timeout=15)
            s = ctx.wrap_socket(raw, server_hostname="localhost", suppress_ragged_eofs=False)
            out.update(version=s.version(), cipher=s.cipher()[0], alpn=s.selected_alpn_protocol())
            payload = b"python says hello\\n" * 20000
            s.sendall(payload)
            got = bytearray()
            while len(got) < len(payload):
                chunk = s.recv(65536)
                if not chunk:
                    break
                got += chunk
            out["echo_ok"] = bytes(got) == payload
            if mode == "truncate":
                s.shutdown(socket.SHUT_RDWR)  # the TCP connection only: no close_notify
                s.close()
            else:
                s.unwrap()  # close_notify, and waits for the server's
                raw.close()
                out["clean"] = True
        except Exception as e:
            out["error"] = repr(e)
        print(json.dumps(out))
        """

    private func runPythonClient(port: Int, mode: String) async throws -> [String: Any] {
        let script = pki.directory + "/client.py"
        if !FileManager.default.fileExists(atPath: script) {
            try Self.pythonClient.write(toFile: script, atomically: true, encoding: .utf8)
        }
        let result = try await ExternalProcess.run(["python3", script, "\(port)", pki.caCertificate, mode])
        try #require(result.status == 0, "python3 failed: \(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").last.map(String.init), "no output")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func pythonClientTLS13() async throws {
        let server = try await TLSEchoServer.start(serverContext)
        let out = try await runPythonClient(port: server.port, mode: "clean")
        #expect(out["error"] == nil, "\(out)")
        #expect(out["version"] as? String == "TLSv1.3")
        #expect(out["alpn"] as? String == "http/1.1")
        #expect(out["echo_ok"] as? Bool == true)
        #expect(out["clean"] as? Bool == true)
        try await server.recorder.waitUntil("server closed") { $0.inactive == 1 }
        #expect(server.recorder.snapshot.tlsErrors.isEmpty)
        #expect(server.recorder.snapshot.handshakes.count == 1)
        try await server.stop()
    }

    @Test func pythonClientTLS12() async throws {
        let server = try await TLSEchoServer.start(serverContext)
        let out = try await runPythonClient(port: server.port, mode: "tls12")
        #expect(out["error"] == nil, "\(out)")
        #expect(out["version"] as? String == "TLSv1.2")
        #expect(Self.allowedTLS12Ciphers.contains(out["cipher"] as? String ?? ""), "\(out)")
        #expect(out["echo_ok"] as? Bool == true)
        #expect(out["clean"] as? Bool == true)
        try await server.stop()
    }

    @Test func pythonClientDroppingTCPIsTruncation() async throws {
        let server = try await TLSEchoServer.start(serverContext)
        let out = try await runPythonClient(port: server.port, mode: "truncate")
        #expect(out["echo_ok"] as? Bool == true, "\(out)")
        try await server.recorder.waitUntil("server closed") { $0.inactive == 1 }
        #expect(server.recorder.snapshot.tlsErrors.map(\.kind) == [.uncleanShutdown])
        try await server.stop()
    }

    @Test func pythonClientOfferingOnlyH2IsRefused() async throws {
        let server = try await TLSEchoServer.start(serverContext)
        let out = try await runPythonClient(port: server.port, mode: "h2only")
        #expect((out["error"] as? String)?.contains("no application protocol") == true, "\(out)")
        try await server.recorder.waitUntil("server error") { !$0.tlsErrors.isEmpty }
        #expect(server.recorder.snapshot.tlsErrors.first?.kind == .handshakeFailed)
        try await server.stop()
    }

    // MARK: Python ssl as the server

    static let pythonServer = """
        import json, socket, ssl, sys
        cert, key, mode = sys.argv[1], sys.argv[2], sys.argv[3]
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(cert, key)
        ctx.set_alpn_protocols(["http/1.1"])
        seen = {}
        def on_sni(sock, name, context):
            seen["sni"] = name
        ctx.sni_callback = on_sni
        srv = socket.socket()
        srv.bind(("127.0.0.1", 0))
        srv.listen(1)
        srv.settimeout(20)
        print(srv.getsockname()[1], flush=True)
        out = {}
        try:
            conn, _ = srv.accept()
            conn.settimeout(20)
            s = ctx.wrap_socket(conn, server_side=True, suppress_ragged_eofs=False)
            out.update(sni=seen.get("sni"), alpn=s.selected_alpn_protocol(), version=s.version())
            total = 0
            while True:
                data = s.recv(65536)
                if not data:
                    out["clean_close"] = True  # the client's close_notify
                    break
                s.sendall(data)
                total += len(data)
                if mode == "truncate":
                    s.shutdown(socket.SHUT_RDWR)  # the TCP connection only: no close_notify
                    s.close()
                    break
            out["echoed"] = total
        except Exception as e:
            out["error"] = repr(e)
        print(json.dumps(out), flush=True)
        """

    private func startPythonServer(mode: String) async throws -> (ExternalProcess, Int) {
        let script = pki.directory + "/server.py"
        if !FileManager.default.fileExists(atPath: script) {
            try Self.pythonServer.write(toFile: script, atomically: true, encoding: .utf8)
        }
        let process = try ExternalProcess(["python3", script, pki.serverCertificate, pki.serverKey, mode])
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(15)
        while clock.now < deadline {
            if let line = process.stdout.split(separator: "\n").first, let port = Int(line) {
                return (process, port)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        process.terminate()
        throw TestFailure("the Python server did not start: \(process.stderr)")
    }

    @Test func ourClientAgainstPythonServer() async throws {
        let (python, port) = try await startPythonServer(mode: "echo")
        defer { python.terminate() }
        let client = Recorder()
        let context = try TLSClientContext(configuration: TLSClientConfiguration(trustRoots: .file(pki.caCertificate)))
        let channel = try await connect(port: port, tls: (context, "localhost"), recorder: client)
        let payload = patternBytes(count: 200_000, seed: 11)
        channel.writeAndFlush(ByteBuffer(bytes: payload), promise: nil)
        try await client.waitUntil("echo from Python") { $0.received.count >= payload.count }
        #expect(client.snapshot.received == payload)
        if case .handshakeCompleted(let alpn, _, let version)? = client.snapshot.handshakes.first {
            #expect(alpn == "http/1.1")
            #expect(version == "TLSv1.3")
        } else {
            Issue.record("no handshake event")
        }
        try await waitFor(channel.close())
        let result = try await python.wait()
        let line = try #require(result.stdout.split(separator: "\n").last.map(String.init))
        let out = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(out["error"] == nil, "\(out)")
        #expect(out["sni"] as? String == "localhost")
        #expect(out["alpn"] as? String == "http/1.1")
        #expect(out["clean_close"] as? Bool == true, "\(out)")
        #expect(out["echoed"] as? Int == payload.count)
        #expect(client.snapshot.tlsErrors.isEmpty)
    }

    @Test func pythonServerDroppingTCPIsTruncationForOurClient() async throws {
        let (python, port) = try await startPythonServer(mode: "truncate")
        defer { python.terminate() }
        let client = Recorder()
        let context = try TLSClientContext(configuration: TLSClientConfiguration(trustRoots: .file(pki.caCertificate)))
        let channel = try await connect(port: port, tls: (context, "localhost"), recorder: client)
        channel.writeAndFlush(ByteBuffer(bytes: Array("cut me short".utf8)), promise: nil)
        try await client.waitUntil("connection dropped") { $0.inactive == 1 }
        #expect(client.snapshot.tlsErrors.map(\.kind) == [.uncleanShutdown])
        _ = try await python.wait()
    }
}
