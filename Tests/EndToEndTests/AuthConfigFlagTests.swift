import Foundation
import ParlorTestSupport
import Testing

/// `--auth-config` (and `PARLOR_AUTH_CONFIG`) through the real `parlor-server`: a Supabase-shaped
/// account signs in over HTTP as the same user across a restart (its mapping is in SQLite), an
/// anonymous sign-in is refused in `required` mode, and a bad file stops the server naming the field.
@Suite(.serialized) struct AuthConfigFlagTests {
    static let issuer = "https://abcdefghijklmnop.supabase.co/auth/v1"
    static let secret = "super-secret-jwt-token-with-at-least-32-characters-long"

    static func write(_ json: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-auth-\(UUID().uuidString).json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A Supabase-shaped access token, signed by PyJWT.
    static func supabaseToken(sub: String) async throws -> String {
        let script = """
            import sys, time, jwt
            now = int(time.time())
            print(jwt.encode({"iss": sys.argv[1], "sub": sys.argv[3], "aud": "authenticated", "role": "authenticated",
                              "iat": now, "exp": now + 3600, "email": "ann@example.org"}, sys.argv[2], algorithm="HS256"))
            """
        let result = try await ExternalProcess.run(["python3", "-c", script, issuer, secret, sub])
        guard result.status == 0 else { throw ProcessTestError("PyJWT failed: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func userId(_ body: String) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["userId"] as? String
    }

    @Test func anAccountSignsInAsTheSameUserAcrossARestart() async throws {
        let config = try Self.write("""
            {"mode": "required", "issuers": [{"iss": "\(Self.issuer)", "audiences": ["authenticated"], "algorithms": ["HS256"], "secret": "\(Self.secret)"}]}
            """)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let jwt = try await Self.supabaseToken(sub: UUID().uuidString.lowercased())
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-e2e-auth-\(UUID().uuidString)").path
        let signIn = { (port: Int) in
            try await curl(["-X", "POST", "-H", "Content-Type: application/json", "--data", #"{"jwt":"\#(jwt)"}"#, "http://127.0.0.1:\(port)/session"])
        }
        let first = try await ServerProcess.with(["--auth-config", config], dataDirectory: data) { server in
            let anonymous = try await curl(["-X", "POST", "http://127.0.0.1:\(server.port)/session"])
            #expect(anonymous.status == 401 && anonymous.body.contains("AUTH_REQUIRED"), "\(anonymous)")
            let account = try await signIn(server.port)
            #expect(account.status == 200, "\(account)")
            return try #require(Self.userId(account.body))
        }
        // The same account after a restart, the configuration from the environment this time.
        try await ServerProcess.with([], dataDirectory: data, environment: ["PARLOR_AUTH_CONFIG": config]) { server in
            let account = try await signIn(server.port)
            #expect(Self.userId(account.body) == first, "\(account)")
        }
    }

    @Test func aBadConfigurationStopsTheServerNamingTheField() async throws {
        let config = try Self.write(#"{"issuers": [{"iss": "i", "audiences": ["a"], "algorithms": ["none"]}]}"#)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let process = try ChildProcess("parlor-server", ["--port", "0", "--no-persist", "--auth-config", config])
        let status = await process.waitForExit(timeout: .seconds(30))
        #expect(status != nil && status != 0)
        #expect(process.standardError.contains("issuers[0].algorithms[0]: none is never accepted"), "\(process.standardError)")
    }
}
