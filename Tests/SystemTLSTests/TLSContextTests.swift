import ParlorTestSupport
import Foundation
import SystemTLS
import Testing

@Suite struct TLSContextTests {
    let pki: TestPKI

    init() throws {
        pki = try TestPKI.get()
    }

    private func serverError(cert: String, key: String) -> TLSError? {
        do {
            _ = try TLSServerContext(configuration: TLSServerConfiguration(certificateChainPath: cert, privateKeyPath: key))
            return nil
        } catch let error as TLSError {
            return error
        } catch {
            Issue.record("unexpected error type: \(error)")
            return nil
        }
    }

    @Test func loadsMatchingCertificateAndKey() throws {
        let context = try TLSServerContext(
            configuration: TLSServerConfiguration(
                certificateChainPath: pki.serverCertificate, privateKeyPath: pki.serverKey))
        #expect(context.configuration.handshakeTimeout == .seconds(10))
        _ = context.makeServerHandler()
    }

    @Test func missingCertificateFileIsNamed() {
        let path = pki.directory + "/no-such-cert.pem"
        let error = serverError(cert: path, key: pki.serverKey)
        #expect(error?.kind == .configuration)
        #expect(error?.description.contains(path) == true)
        #expect(error?.description.contains("No such file") == true)
    }

    @Test func keyInsteadOfCertificateIsNamed() {
        let error = serverError(cert: pki.serverKey, key: pki.serverKey)
        #expect(error?.kind == .configuration)
        #expect(error?.description.contains("certificate chain from '\(pki.serverKey)'") == true)
    }

    @Test func missingOrUnreadableKeyIsNamed() throws {
        let missing = pki.directory + "/no-such-key.pem"
        let error = serverError(cert: pki.serverCertificate, key: missing)
        #expect(error?.kind == .configuration)
        #expect(error?.description.contains(missing) == true)

        let notAKey = serverError(cert: pki.serverCertificate, key: pki.caCertificate)
        #expect(notAKey?.description.contains("private key from '\(pki.caCertificate)'") == true)
    }

    @Test func encryptedKeyIsRefusedWithoutPrompting() async throws {
        let encrypted = pki.directory + "/encrypted-\(UUID().uuidString).key"
        let result = try await ExternalProcess.run([
            "openssl", "pkey", "-in", pki.serverKey, "-aes256", "-passout", "pass:secret", "-out", encrypted,
        ])
        try #require(result.status == 0, "\(result.stderr)")
        let error = serverError(cert: pki.serverCertificate, key: encrypted)
        #expect(error?.kind == .configuration)
        #expect(error?.description.contains(encrypted) == true)
    }

    @Test func mismatchedKeyNamesBothFiles() {
        let error = serverError(cert: pki.serverCertificate, key: pki.selfSignedKey)
        #expect(error?.kind == .configuration)
        #expect(error?.description.contains(pki.selfSignedKey) == true)
        #expect(error?.description.contains(pki.serverCertificate) == true)
        #expect(error?.description.contains("does not match") == true)
    }

    @Test func missingCAFileIsNamed() {
        let path = pki.directory + "/no-such-ca.pem"
        #expect {
            try TLSClientContext(configuration: TLSClientConfiguration(trustRoots: .file(path)))
        } throws: { error in
            (error as? TLSError)?.kind == .configuration && "\(error)".contains(path)
        }
    }

    @Test func clientDefaultsAndHostnameRules() throws {
        let configuration = TLSClientConfiguration()
        #expect(configuration.verifyPeer)
        if case .system = configuration.trustRoots {} else { Issue.record("default trust roots should be .system") }

        let client = try TLSClientContext(configuration: TLSClientConfiguration(trustRoots: .file(pki.caCertificate)))
        #expect(throws: TLSError.self) { try client.makeClientHandler(serverHostname: nil) }
        #expect(throws: TLSError.self) { try client.makeClientHandler(serverHostname: "") }
        _ = try client.makeClientHandler(serverHostname: "localhost")
        _ = try client.makeClientHandler(serverHostname: "localhost.")
        _ = try client.makeClientHandler(serverHostname: "127.0.0.1")
        _ = try client.makeClientHandler(serverHostname: "[::1]")

        let lax = try TLSClientContext(configuration: TLSClientConfiguration(verifyPeer: false))
        _ = try lax.makeClientHandler(serverHostname: nil)
    }

    @Test func errorDescriptions() {
        let verify = TLSError(
            kind: .certificateVerificationFailed, reason: "error:0A000086:SSL routines::certificate verify failed",
            verifyResult: "hostname mismatch")
        #expect(
            verify.description
                == "TLS certificate verification failed: hostname mismatch (error:0A000086:SSL routines::certificate verify failed)")
        let eof = TLSError(kind: .uncleanShutdown, reason: "x")
        #expect(eof.description.hasPrefix("TLS connection closed without close_notify"))
    }
}
