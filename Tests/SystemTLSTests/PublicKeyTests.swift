import Foundation
import ParlorTestSupport
import SystemTLS
import Testing

/// Public keys and signature checks against keys and signatures the `openssl` CLI made: each scheme
/// accepts its own signature and refuses an altered one, another key's, and a key of another kind.
@Suite struct PublicKeyTests {
    /// Runs `openssl` in `directory` and fails the test if it does.
    static func openssl(_ arguments: [String], in directory: String) async throws {
        let result = try await ExternalProcess.run(["openssl"] + arguments, directory: directory)
        guard result.status == 0 else { throw TestFailure("openssl \(arguments.joined(separator: " ")): \(result.stderr)") }
    }

    static func read(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func signaturesFromTheCLIVerifyAndAlteredOnesDoNot() async throws {
        let dir = NSTemporaryDirectory() + "parlor-pubkey-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let message = Array("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0".utf8)
        try Data(message).write(to: URL(fileURLWithPath: dir + "/message"))
        for (name, options) in [("rsa", ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]), ("ed", ["-algorithm", "ED25519"]),
                                ("ec", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"])] {
            try await Self.openssl(["genpkey"] + options + ["-out", "\(name).key"], in: dir)
            try await Self.openssl(["pkey", "-in", "\(name).key", "-pubout", "-out", "\(name).pub"], in: dir)
        }
        try await Self.openssl(["dgst", "-sha256", "-sign", "rsa.key", "-out", "rs256.sig", "message"], in: dir)
        try await Self.openssl(
            ["dgst", "-sha256", "-sign", "rsa.key", "-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:digest",
             "-out", "ps256.sig", "message"], in: dir)
        try await Self.openssl(["pkeyutl", "-sign", "-rawin", "-inkey", "ed.key", "-in", "message", "-out", "ed.sig"], in: dir)

        let rsa = try PublicKey.pem(String(decoding: try Self.read(dir + "/rsa.pub"), as: UTF8.self))
        let ed = try PublicKey.pem(String(decoding: try Self.read(dir + "/ed.pub"), as: UTF8.self))
        let ec = try PublicKey.pem(String(decoding: try Self.read(dir + "/ec.pub"), as: UTF8.self))
        #expect(rsa.kind == .rsa(bits: 2048) && ed.kind == .ed25519 && ec.kind == .ecP256)

        let rs256 = try Self.read(dir + "/rs256.sig")
        let ps256 = try Self.read(dir + "/ps256.sig")
        let edSignature = try Self.read(dir + "/ed.sig")
        #expect(rsa.isValidSignature(rs256, for: message, scheme: .rsaPKCS1(.sha256)))
        #expect(rsa.isValidSignature(ps256, for: message, scheme: .rsaPSSSHA256))
        #expect(ed.isValidSignature(edSignature, for: message, scheme: .ed25519))
        // Each refuses the other padding, another hash, an altered message, and a key of another kind.
        #expect(!rsa.isValidSignature(ps256, for: message, scheme: .rsaPKCS1(.sha256)))
        #expect(!rsa.isValidSignature(rs256, for: message, scheme: .rsaPSSSHA256))
        #expect(!rsa.isValidSignature(rs256, for: message, scheme: .rsaPKCS1(.sha384)))
        #expect(!rsa.isValidSignature(rs256, for: message + [0x2e], scheme: .rsaPKCS1(.sha256)))
        #expect(!ed.isValidSignature(edSignature, for: Array(message.dropLast()), scheme: .ed25519))
        #expect(!ec.isValidSignature(edSignature, for: message, scheme: .ed25519))
        #expect(!ec.isValidSignature(Array(repeating: 1, count: 64), for: message, scheme: .ecdsaP256SHA256))
        #expect(!ec.isValidSignature(Array(repeating: 1, count: 63), for: message, scheme: .ecdsaP256SHA256))
        #expect(!ec.isValidSignature([], for: message, scheme: .ecdsaP384SHA384))
    }

    @Test func hmacIsCheckedInConstantTimeAgainstTheCLIsCode() async throws {
        let key = Array("a-shared-secret-of-thirty-two-bytes!".utf8)
        let message = Array("header.payload".utf8)
        let raw = try await ExternalProcess.run(
            ["sh", "-c", "printf '%s' 'header.payload' | openssl dgst -sha384 -hmac '\(String(decoding: key, as: UTF8.self))' -hex"])
        let hex = raw.stdout.split(separator: "=").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        let bytes = stride(from: 0, to: hex.count, by: 2).map { offset -> UInt8 in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16) ?? 0
        }
        #expect(bytes.count == 48)
        #expect(HMACCheck.isValid(bytes, for: message, key: key, hash: .sha384))
        #expect(!HMACCheck.isValid(bytes, for: message, key: key, hash: .sha256))
        #expect(!HMACCheck.isValid(Array(bytes.dropLast()), for: message, key: key, hash: .sha384))
        #expect(!HMACCheck.isValid(bytes, for: message + [0], key: key, hash: .sha384))
        // (Not `key + [0]`: HMAC pads a short key with zero bytes, so that one is the same key.)
        #expect(!HMACCheck.isValid(bytes, for: message, key: key + [1], hash: .sha384))
    }
}
