import Foundation
import NIOCore
import ParlorTestSupport
import SystemTLS
import Testing
import WebSocketCore

/// A renewed certificate under open `wss://` connections, as an operator (or certbot's deploy hook)
/// swaps it: SIGHUP, or just the files changing, and new connections get the new one while none of the
/// open ones drops; a broken pair is refused with a log line and the one in use stays.
@Suite(.serialized) struct CertificateReloadTests {
    static let openConnections = 100

    @Test func aCertificateSwappedUnderOpenConnectionsDropsNoneAndNewOnesSeeIt() async throws {
        let pki = try TestPKI.get()
        let directory = NSTemporaryDirectory() + "parlor-cert-reload-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let certificate = directory + "/cert.pem"
        let key = directory + "/key.pem"
        try Self.install(pki.serverCertificate, pki.serverKey, as: certificate, key)
        let first = try Self.fingerprint(ofFile: pki.serverCertificate)
        let second = try Self.fingerprint(ofFile: pki.selfSignedCertificate)
        #expect(first != second)

        let server = try await ServerProcess.start([
            "--no-persist", "--echo", "--log-level", "info", "--tls-cert", certificate, "--tls-key", key,
            "--tls-check-interval", "1",
        ])
        defer { Task { await server.stop() } }
        #expect(try await Self.servedFingerprint(port: server.port) == first)

        var trusting = WebSocketClientConfiguration()
        trusting.tls = try TLSClientContext(configuration: TLSClientConfiguration(trustRoots: .file(pki.caCertificate)))
        let client = trusting
        let swapped = AsyncGate()
        let echoedAfter = try await withThrowingTaskGroup(of: Bool.self) { group in
            let opened = Counter()
            for index in 0..<Self.openConnections {
                group.addTask {
                    try await WebSocketClient.connect(to: "wss://localhost:\(server.port)/echo", configuration: client) { ws in
                        var replies = ws.inbound.makeAsyncIterator()
                        try await ws.send(.text("before \(index)"))
                        guard try await replies.next() == .text("before \(index)") else { return false }
                        await opened.increment()
                        await swapped.wait()
                        try await ws.send(.text("after \(index)"))
                        let echoed = try await replies.next() == .text("after \(index)")
                        await ws.close(code: .normalClosure)
                        return echoed
                    }
                }
            }
            #expect(await eventually(timeout: .seconds(60)) { await opened.value == Self.openConnections })

            // The renewal: new files, then SIGHUP (as `systemctl reload` sends).
            try Self.install(pki.selfSignedCertificate, pki.selfSignedKey, as: certificate, key)
            kill(server.process.pid, SIGHUP)
            #expect(await eventually(timeout: .seconds(20)) { (try? await Self.servedFingerprint(port: server.port)) == second })
            #expect(server.log.contains("Certificate reloaded"), "\(server.log)")
            await swapped.open()
            var echoed = 0
            for try await ok in group where ok { echoed += 1 }
            return echoed
        }
        #expect(echoedAfter == Self.openConnections, "every connection opened before the swap still answers after it")
        #expect(server.isRunning)

        // A broken pair (the first certificate with the second's key): refused, the second stays.
        try Self.install(pki.serverCertificate, pki.selfSignedKey, as: certificate, key)
        kill(server.process.pid, SIGHUP)
        #expect(await eventually(timeout: .seconds(20)) { server.log.contains("The new certificate was refused") }, "\(server.log)")
        #expect(server.log.contains("does not match"), "\(server.log)")
        #expect(try await Self.servedFingerprint(port: server.port) == second)

        // A good pair again, and no signal: the server sees the files change by itself.
        try Self.install(pki.serverCertificate, pki.serverKey, as: certificate, key)
        #expect(await eventually(timeout: .seconds(20)) { (try? await Self.servedFingerprint(port: server.port)) == first })
        #expect(server.isRunning)
    }

    /// A server without a certificate takes SIGHUP in its stride instead of ending.
    @Test func aHangupWithoutACertificateChangesNothing() async throws {
        let server = try await ServerProcess.start(["--no-persist", "--log-level", "info"])
        defer { Task { await server.stop() } }
        kill(server.process.pid, SIGHUP)
        #expect(await eventually(timeout: .seconds(10)) { server.log.contains("Nothing to reload") }, "\(server.log)")
        #expect(server.isRunning)
        let health = try await curl(["http://127.0.0.1:\(server.port)/healthz"])
        #expect(health.status == 200)
    }

    // MARK: Helpers

    /// Copies a certificate and key in place as a renewal would: each written to a temporary file and
    /// renamed over the old one.
    static func install(_ sourceCertificate: String, _ sourceKey: String, as certificate: String, _ key: String) throws {
        for (source, target) in [(sourceCertificate, certificate), (sourceKey, key)] {
            let temporary = target + ".new"
            try? FileManager.default.removeItem(atPath: temporary)
            try FileManager.default.copyItem(atPath: source, toPath: temporary)
            guard rename(temporary, target) == 0 else { throw TestFailure("cannot rename \(temporary) to \(target)") }
        }
    }

    static func fingerprint(ofFile path: String) throws -> String {
        let result = try ExternalProcess.runBlocking(["openssl", "x509", "-in", path, "-noout", "-fingerprint", "-sha256"])
        guard result.status == 0 else { throw TestFailure("openssl x509 failed: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The certificate a new connection is shown, as `openssl s_client` sees it.
    static func servedFingerprint(port: Int) async throws -> String {
        let shown = try await ExternalProcess.run(
            ["sh", "-c", "openssl s_client -connect 127.0.0.1:\(port) -servername localhost </dev/null 2>/dev/null | openssl x509 -noout -fingerprint -sha256"])
        guard shown.status == 0 else { throw TestFailure("s_client: \(shown.stderr)") }
        return shown.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Opens once; every waiter before and after goes on.
private actor AsyncGate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }
}

private actor Counter {
    private(set) var value = 0
    func increment() { value += 1 }
}
