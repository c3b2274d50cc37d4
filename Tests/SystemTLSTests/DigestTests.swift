import Foundation
import SystemTLS
import Testing

@Suite struct DigestTests {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func sha1KnownAnswer() {
        #expect(hex(SHA1.hash(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.hash([UInt8]())) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    @Test func sha256KnownAnswer() {
        #expect(hex(SHA256.hash(Array("abc".utf8)))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// RFC 4231 test case 2.
    @Test func hmacSHA256KnownAnswer() {
        let code = HMACSHA256.authenticationCode(
            for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
        #expect(hex(code) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(HMACSHA256.isValid(code, for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8)))
        var altered = code
        altered[0] ^= 1
        #expect(!HMACSHA256.isValid(altered, for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8)))
        #expect(!HMACSHA256.isValid(code.dropLast(), for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8)))
    }

    @Test func randomBytesDiffer() {
        let a = SecureRandom.bytes(count: 32)
        let b = SecureRandom.bytes(count: 32)
        #expect(a.count == 32)
        #expect(a != b)
        for _ in 0..<1000 {
            let v = SecureRandom.uniform(below: 36)
            #expect((0..<36).contains(v))
        }
    }
}
