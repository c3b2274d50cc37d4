import Foundation
import ParlorClient
import ParlorTestSupport
import Synchronization
import Testing

/// How many times a token provider was asked.
final class AskCount: Sendable {
    private let count = Mutex(0)

    /// Counts one more ask; the count now.
    func next() -> Int { count.withLock { $0 += 1; return $0 } }
    var value: Int { count.withLock { $0 } }
}

/// The clients sign in with an account's JWT from where the person keeps it, and outlive any one token,
/// against the real `parlor-server` with `--auth-config` (HS256, no clock skew, a short grace):
/// ParlorClient asks its token provider again when the server says the token expired; `parlor login
/// --jwt-file` signs every command in with the file, read again each time, and `$PARLOR_JWT` before it.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct AccountTokenRefreshTests {
    static let grace = 2

    /// A server that signs in Supabase-shaped accounts (or anonymously), for the duration of `body`.
    static func withServer<R>(_ body: (TerminalServer) async throws -> R) async throws -> R {
        let config = try AuthConfigFlagTests.write("""
            {"mode": "optional", "clockSkewSeconds": 0, "expiryGraceSeconds": \(grace),
             "issuers": [{"iss": "\(AuthConfigFlagTests.issuer)", "audiences": ["authenticated"], "algorithms": ["HS256"],
                          "secret": "\(AuthConfigFlagTests.secret)"}]}
            """)
        defer { try? FileManager.default.removeItem(atPath: config) }
        return try await TerminalServer.with(extraArguments: ["--no-persist", "--auth-config", config], body)
    }

    /// A Supabase-shaped token of `sub` that expires `lifetime` seconds from now (negative: already did),
    /// signed by PyJWT; and its `exp`.
    static func token(sub: String, lifetime: Int) async throws -> (jwt: String, exp: Int) {
        let script = """
            import sys, time, jwt
            now = int(time.time())
            exp = now + int(sys.argv[4])
            print(jwt.encode({"iss": sys.argv[1], "sub": sys.argv[3], "aud": "authenticated", "role": "authenticated",
                              "iat": min(now, exp), "exp": exp}, sys.argv[2], algorithm="HS256"), exp)
            """
        let result = try await ExternalProcess.run(
            ["python3", "-c", script, AuthConfigFlagTests.issuer, AuthConfigFlagTests.secret, sub, String(lifetime)])
        guard result.status == 0 else { throw ProcessTestError("PyJWT failed: \(result.stderr)") }
        let parts = result.stdout.split(separator: " ")
        guard parts.count == 2, let exp = Int(parts[1].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ProcessTestError("PyJWT printed \(result.stdout)")
        }
        return (String(parts[0]), exp)
    }

    /// The user POST /session {jwt} signs in as.
    static func user(of jwt: String, port: Int) async throws -> String? {
        let answer = try await curl([
            "-X", "POST", "-H", "Content-Type: application/json", "--data", #"{"jwt":"\#(jwt)"}"#, "http://127.0.0.1:\(port)/session",
        ])
        return AuthConfigFlagTests.userId(answer.body)
    }

    @Test func aParlorClientAsksItsTokenProviderAgainWhenTheTokenExpiresAndKeepsItsConnection() async throws {
        try await Self.withServer { server in
            let sub = UUID().uuidString.lowercased()
            let fresh = try await Self.token(sub: sub, lifetime: 3600)
            // Made last, just before the client signs in with it: a few seconds, even on a busy machine.
            let short = try await Self.token(sub: sub, lifetime: 5)
            let asked = AskCount()
            var configuration = ParlorClientConfiguration(server: try ServerAddress(server.url))
            configuration.tokenProvider = { asked.next() == 1 ? short.jwt : fresh.jwt }
            let client = ParlorClient(configuration: configuration)
            let states = client.connectionStates()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await client.run() }
                let seen = Task { await states.reduce(into: [ConnectionState]()) { $0.append($1) } }
                _ = try await client.listHistory()
                let user = try #require(client.userId)
                #expect(user.rawValue == (try await Self.user(of: fresh.jwt, port: server.port)))

                // The token expires: the server says so, the client asks its provider and refreshes.
                while asked.value < 2 { try await Task.sleep(for: .milliseconds(100)) }
                // Past the grace the connection is still the first one, signed in as before.
                while Int(Date().timeIntervalSince1970) <= short.exp + Self.grace + 1 { try await Task.sleep(for: .milliseconds(200)) }
                _ = try await client.listHistory()
                #expect(client.userId == user)
                await client.close()
                try await group.waitForAll()
                let history = await seen.value
                #expect(!history.contains { if case .reconnecting = $0 { true } else { false } }, "\(history)")
                #expect(asked.value == 2)
            }
        }
    }

    @Test func parlorLoginSignsEveryCommandInWithTheFileReadAgainEachTime() async throws {
        try await Self.withServer { server in
            let home = try ScratchDirectory("login")
            defer { home.remove() }
            let file = home.url.appendingPathComponent("account.jwt").path
            let sub = UUID().uuidString.lowercased()
            let write = { (jwt: String) in try Data((jwt + "\n").utf8).write(to: URL(fileURLWithPath: file)) }

            // Anonymous first: the identity the terminal keeps in tokens.json.
            #expect(try await oneShot(["history", "--json"], home: home, server: server).status == 0)
            let first = try await Self.token(sub: sub, lifetime: 3600)
            try write(first.jwt)

            // Logging in with --link makes that identity the account's.
            let login = try await oneShot(["login", "--jwt-file", file, "--link", "--json"], home: home, server: server)
            #expect(login.status == 0, "\(login)")
            let line = try #require(try JSONSerialization.jsonObject(with: Data(login.stdout.utf8)) as? [String: Any], "\(login)")
            let user = try #require(line["userId"] as? String)
            #expect(line["linked"] as? Bool == true)
            #expect(try await Self.user(of: first.jwt, port: server.port) == user)

            // Every command signs in with the file: an expired token in it is refused, saying so …
            try write(try await Self.token(sub: sub, lifetime: -600).jwt)
            let stale = try await oneShot(["history", "--json"], home: home, server: server)
            #expect(stale.status == 1 && stale.stderr.contains("expired"), "\(stale)")
            // … and a fresh one, written by whatever refreshes it, is read again.
            try write(try await Self.token(sub: sub, lifetime: 3600).jwt)
            #expect(try await oneShot(["history", "--json"], home: home, server: server).status == 0)

            // $PARLOR_JWT comes before the file.
            let process = try ChildProcess(
                "parlor", ["history", "--json", "--server", server.url],
                environment: ["XDG_CONFIG_HOME": home.path, "PARLOR_JWT": "not-a-jwt"], name: "parlor history")
            process.closeInput()
            #expect(await process.waitForExit(timeout: .seconds(30)) == 1)
            #expect(process.standardError.contains("INVALID_TOKEN") || process.standardError.contains("compact form"), "\(process.standardError)")

            // A login whose token is refused changes nothing; logout goes back to the kept identity.
            try write(try await Self.token(sub: sub, lifetime: -600).jwt)
            let refused = try await oneShot(["login", "--jwt-file", file], home: home, server: server)
            #expect(refused.status == 1 && refused.stderr.contains("expired"), "\(refused)")
            #expect(try await oneShot(["logout"], home: home, server: server).status == 0)
            #expect(try await oneShot(["history", "--json"], home: home, server: server).status == 0)
        }
    }
}
