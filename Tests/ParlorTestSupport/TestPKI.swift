import Foundation

/// A throwaway PKI made with the `openssl` CLI once per test process, in a fresh temporary directory:
/// a test CA, a server certificate signed by it for `localhost` and `127.0.0.1`, and a self-signed certificate
/// (same names) that the CA did not sign.
public struct TestPKI: Sendable {
    public let directory: String

    public var caCertificate: String { directory + "/ca.pem" }
    public var serverCertificate: String { directory + "/server.pem" }
    public var serverKey: String { directory + "/server.key" }
    public var selfSignedCertificate: String { directory + "/self.pem" }
    public var selfSignedKey: String { directory + "/self.key" }

    public static let shared: Result<TestPKI, Error> = Result { try TestPKI.generate() }

    public static func get() throws -> TestPKI { try shared.get() }

    private static func generate() throws -> TestPKI {
        removeStaleDirectories()
        let dir = NSTemporaryDirectory() + "parlor-tls-pki-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let ext = """
            basicConstraints=critical,CA:FALSE
            keyUsage=critical,digitalSignature,keyEncipherment
            extendedKeyUsage=serverAuth
            subjectAltName=DNS:localhost,IP:127.0.0.1
            subjectKeyIdentifier=hash
            authorityKeyIdentifier=keyid,issuer
            crlDistributionPoints=URI:http://localhost/parlor-test-ca.crl

            """
        try ext.write(toFile: dir + "/server.ext", atomically: true, encoding: .utf8)
        let ecKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let steps: [[String]] = [
            ["req", "-x509", "-new"] + ecKey + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "90", "-subj", "/CN=Parlor Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ],
            [
                "req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr",
                "-subj", "/CN=localhost",
            ],
            [
                "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "server.pem", "-days", "90", "-extfile", "server.ext",
            ],
            ["req", "-x509", "-new"] + ecKey + [
                "-keyout", "self.key", "-out", "self.pem", "-days", "90", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ],
        ]
        for step in steps {
            let result = try ExternalProcess.runBlocking(["openssl"] + step, directory: dir)
            guard result.status == 0 else {
                throw TestFailure("openssl \(step.joined(separator: " ")) failed: \(result.stderr)")
            }
        }
        return TestPKI(directory: dir)
    }
}

extension TestPKI {
    /// Removes what earlier test runs left (directories over an hour old; a run in progress keeps its own).
    fileprivate static func removeStaleDirectories() {
        let fm = FileManager.default
        let tmp = NSTemporaryDirectory()
        guard let names = try? fm.contentsOfDirectory(atPath: tmp) else { return }
        for name in names where name.hasPrefix("parlor-tls-pki-") {
            let path = tmp + name
            if let modified = (try? fm.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                modified < Date(timeIntervalSinceNow: -3600)
            {
                try? fm.removeItem(atPath: path)
            }
        }
    }
}

public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
