import Foundation
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// A token is accepted in exactly the spelling the server issued: the signature's last base64url
/// character has two bits no byte uses, and the three other values of those bits are refused.
@Suite struct SessionTokenTests {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// The three other spellings of `token`: its last character with the unused low bits set.
    static func otherSpellings(of token: String) throws -> [String] {
        let last = try #require(token.last)
        let value = try #require(alphabet.firstIndex(of: last))
        #expect(value & 0b11 == 0, "an issued signature leaves the unused bits clear")
        return (1...3).map { String(token.dropLast()) + String(alphabet[value | $0]) }
    }

    @Test func onlyTheCanonicalSpellingOfASignatureVerifies() throws {
        let tokens = SessionTokens(secret: Array(repeating: 7, count: 32))
        var generator = SystemRandomNumberGenerator()
        for seconds in 0..<50 {
            let user = UserID.random(using: &generator)
            let token = tokens.issue(for: user, at: Instant(millisecondsSinceEpoch: Int64(seconds) * 1_000))
            #expect(token.split(separator: ".").last?.count == 43)
            #expect(tokens.verify(token) == user)
            for spelling in try Self.otherSpellings(of: token) {
                #expect(tokens.verify(spelling) == nil, "\(spelling) is another spelling of \(token)")
            }
            #expect(tokens.verify(token + "=") == nil)
            #expect(tokens.verify(token + "A") == nil)
        }
    }

    @Test func otherSpellingsAreRefusedOverTheWire() async throws {
        try await withParlor { parlor in
            let (token, user) = try await parlor.connect { ann in (try #require(ann.token), try #require(ann.userId)) }
            for spelling in try Self.otherSpellings(of: token) {
                // hello with it: a new identity, never the user it imitates.
                let (resumed, signedInAs) = try await parlor.connect(signIn: false) { connection in
                    let result = try await connection.hello(token: spelling)
                    return (result["resumed"] as? Bool, result["userId"] as? String)
                }
                #expect(resumed == false)
                #expect(signedInAs != user)
                // In the upgrade request: refused.
                await #expect(throws: (any Error).self) {
                    try await parlor.connect(signIn: false, headers: [("Authorization", "Bearer \(spelling)")]) { _ in }
                }
                // As an HTTP bearer token: unauthenticated.
                let (status, _) = try await parlor.http(
                    "POST", "/rooms", body: ["pointLimit": 150, "pointValue": 5, "playerCount": 2, "playerName": "Ann"], token: spelling)
                #expect(status == 401)
            }
            let (status, _) = try await parlor.http(
                "POST", "/rooms", body: ["pointLimit": 150, "pointValue": 5, "playerCount": 2, "playerName": "Ann"], token: token)
            #expect(status == 201)
        }
    }
}
