import Foundation
import Testing
@testable import ParlorAuth
@testable import ParlorServer

/// `--auth-config`: the issue's shape is read as written, and a field the server cannot take stops it
/// with the field's name.
@Suite struct AuthConfigurationTests {
    static func parse(_ json: String) -> Result<AuthConfiguration, AuthConfigurationError> {
        do {
            return .success(try AuthConfiguration.parse(Data(json.utf8)))
        } catch {
            return .failure(error)
        }
    }

    static let secret = "0123456789abcdef0123456789abcdef-secret"

    @Test func theIssuesShapeIsRead() async throws {
        let keys = try await TestIssuer.make([])
        let pem = keys.pems["ec256"]!.replacingOccurrences(of: "\n", with: "\\n")
        let json = """
            {"mode": "optional",
             "issuers": [
               {"iss": "https://abc.supabase.co/auth/v1", "audiences": ["authenticated"], "algorithms": ["HS256"], "secret": "\(Self.secret)"},
               {"iss": "https://securetoken.google.com/my-app", "audiences": ["my-app"], "algorithms": ["RS256"],
                "jwksURL": "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"},
               {"iss": "https://login.example.org", "audiences": ["parlor"], "algorithms": ["ES256", "EdDSA"], "publicKeys": ["\(pem)"]}],
             "clockSkewSeconds": 30}
            """
        let configuration = try Self.parse(json).get()
        #expect(configuration.mode == .optional)
        #expect(configuration.clockSkewSeconds == 30)
        #expect(configuration.issuers.map(\.iss) == ["https://abc.supabase.co/auth/v1", "https://securetoken.google.com/my-app", "https://login.example.org"])
        #expect(configuration.issuers[0].secret == Array(Self.secret.utf8))
        #expect(configuration.issuers[1].jwksURL?.host == "www.googleapis.com")
        #expect(configuration.issuers[1].jwksURL?.port == 443)
        #expect(configuration.issuers[1].jwksURL?.target == "/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com")
        #expect(configuration.issuers[2].algorithms == [.es256, .edDSA])
        #expect(configuration.issuers[2].publicKeys.map(\.kind) == [.ecP256])
        // Without a mode: anonymous when no issuer is configured, optional when one is.
        #expect(try Self.parse("{}").get().mode == .anonymous)
        #expect(try Self.parse(#"{"issuers":[{"iss":"i","audiences":["a"],"algorithms":["HS256"],"secret":"\#(Self.secret)"}]}"#).get().mode == .optional)
    }

    @Test func aBadFieldIsNamed() {
        let issuer = #""iss":"i","audiences":["a"]"#
        let cases: [(String, String)] = [
            ("[]", "the document must be a JSON object"),
            ("{", "not valid JSON"),
            (#"{"mode":"open"}"#, "mode: must be anonymous, optional or required"),
            (#"{"mode":"required"}"#, "issuers: mode required needs at least one issuer"),
            (#"{"issuers":{}}"#, "issuers: must be an array"),
            (#"{"issuer":[]}"#, "issuer: is not a field"),
            (#"{"clockSkewSeconds":9999}"#, "clockSkewSeconds: must be between 0 and 600"),
            (#"{"issuers":[{"audiences":["a"],"algorithms":["HS256"],"secret":"\#(Self.secret)"}]}"#, "issuers[0].iss: is required"),
            (#"{"issuers":[{"iss":"i","audiences":[],"algorithms":["HS256"],"secret":"\#(Self.secret)"}]}"#, "issuers[0].audiences: must list"),
            (#"{"issuers":[{\#(issuer),"algorithms":["HS256","none"],"secret":"\#(Self.secret)"}]}"#, "issuers[0].algorithms[1]: none is never accepted"),
            (#"{"issuers":[{\#(issuer),"algorithms":["HS1"]}]}"#, "issuers[0].algorithms[0]: HS1 is not one of"),
            (#"{"issuers":[{\#(issuer),"algorithms":["HS256"],"secret":"short"}]}"#, "issuers[0].secret: must be at least 32 bytes"),
            (#"{"issuers":[{\#(issuer),"algorithms":["HS256"]}]}"#, "issuers[0].secret: is required"),
            (#"{"issuers":[{\#(issuer),"algorithms":["RS256"],"secret":"\#(Self.secret)","jwksURL":"https://x/j"}]}"#, "issuers[0].secret: is used only by HS256"),
            (#"{"issuers":[{\#(issuer),"algorithms":["RS256"]}]}"#, "issuers[0].publicKeys: or jwksURL is required"),
            (#"{"issuers":[{\#(issuer),"algorithms":["RS256"],"publicKeys":["nope"]}]}"#, "issuers[0].publicKeys[0]: the text is not a PEM"),
            (#"{"issuers":[{\#(issuer),"algorithms":["RS256"],"jwksURL":"ftp://x/j"}]}"#, "issuers[0].jwksURL: must start with https://"),
            (#"{"issuers":[{\#(issuer),"algorithms":["RS256"],"jwks_url":"https://x/j"}]}"#, "issuers[0].jwks_url: is not a field"),
            (#"{"issuers":[{\#(issuer),"algorithms":["RS256"],"jwksURL":"https://x/j"},{\#(issuer),"algorithms":["RS256"],"jwksURL":"https://x/j"}]}"#, "issuers[1].iss: i is configured twice"),
        ]
        for (json, expected) in cases {
            guard case .failure(let error) = Self.parse(json) else {
                Issue.record("accepted: \(json)")
                continue
            }
            #expect(error.description.hasPrefix(expected), "\(json): \(error)")
        }
    }

    @Test func aPublicKeyNoAllowedAlgorithmUsesIsRefused() async throws {
        let keys = try await TestIssuer.make([])
        let pem = keys.pems["ed25519"]!.replacingOccurrences(of: "\n", with: "\\n")
        let json = #"{"issuers":[{"iss":"i","audiences":["a"],"algorithms":["RS256"],"publicKeys":["\#(pem)"]}]}"#
        guard case .failure(let error) = Self.parse(json) else {
            Issue.record("an Ed25519 key was taken for RS256")
            return
        }
        #expect(error.description == "issuers[0].publicKeys[0]: is Ed25519, which none of the allowed algorithms uses")
    }
}
