import Foundation
import Testing
import WebSocketCore

/// The quota, per-address and operator flags through the real `parlor-server`, spoken to with `curl`
/// (installed by `scripts/setup.sh --test`) and our WebSocket client.
@Suite(.serialized) struct HardeningFlagsTests {
    static let adminToken = "e2e-admin-token-0123456789"

    /// `curl -i` once; returns the status, the lowercased headers and the body. Status 0: no answer
    /// (the connection was refused or closed).
    static func curl(_ arguments: [String]) async throws -> (status: Int, headers: [String: String], body: String) {
        let process = try ChildProcess(
            executable: "/usr/bin/env", ["curl", "-s", "-i", "--max-time", "10"] + arguments, name: "curl")
        guard await process.waitForExit(timeout: .seconds(20)) != nil else {
            await process.stop()
            throw ProcessTestError("curl \(arguments) did not finish")
        }
        let text = process.standardOutput
        guard let split = text.range(of: "\r\n\r\n") else { return (0, [:], "") }
        let head = text[..<split.lowerBound].split(separator: "\r\n")
        let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (status, headers, String(text[split.upperBound...]))
    }

    /// Runs `body` with `count` WebSocket connections to `url` held open.
    static func holding(_ count: Int, _ url: String, _ body: @Sendable () async throws -> Void) async throws {
        guard count > 0 else { return try await body() }
        try await WebSocketClient.connect(to: url) { _ in try await holding(count - 1, url, body) }
    }

    /// Runs `body` against a server started with `arguments`, and stops it whatever happens.
    static func withServer(_ arguments: [String], _ body: (ServerProcess) async throws -> Void) async throws {
        let server = try await ServerProcess.start(arguments)
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func quotasAndTheAdminPortFromTheCommandLine() async throws {
        try await Self.withServer([
            "--no-persist", "--max-games-per-user", "1", "--max-connections-per-address", "2",
            "--admin-port", "0", "--admin-token", Self.adminToken,
        ]) { server in
            let (_, adminLine) = try await server.process.waitForLine("admin listening on HOST:PORT") { $0.hasPrefix("admin listening on ") }
            let adminPort = try #require(adminLine.split(separator: ":").last.flatMap { Int($0) })
            let base = "http://127.0.0.1:\(server.port)"
            let admin = "http://127.0.0.1:\(adminPort)"

            // One game per user: the second is QUOTA_EXCEEDED, 429 with Retry-After.
            let session = try await Self.curl(["-X", "POST", "\(base)/session"])
            let token = try #require(
                (try JSONSerialization.jsonObject(with: Data(session.body.utf8)) as? [String: Any])?["token"] as? String)
            let room = ["-X", "POST", "-H", "Authorization: Bearer \(token)", "-H", "Content-Type: application/json",
                        "--data", #"{"pointLimit":150,"pointValue":5,"playerCount":2,"playerName":"Ann"}"#, "\(base)/rooms"]
            #expect(try await Self.curl(room).status == 201)
            let refused = try await Self.curl(room)
            #expect(refused.status == 429 && refused.headers["retry-after"] == "60")
            #expect(refused.body.contains("QUOTA_EXCEEDED"))

            // /metrics wants the admin token, on both ports; /healthz does not.
            #expect(try await Self.curl(["\(base)/metrics"]).status == 401)
            #expect(try await Self.curl(["-H", "Authorization: Bearer \(Self.adminToken)", "\(admin)/metrics"]).status == 200)
            #expect(try await Self.curl(["\(admin)/healthz"]).body == "ok\n")

            // Two connections from 127.0.0.1 fill its share: a third is refused, another address is not,
            // and the admin port answers whatever the client side looks like.
            try await Self.holding(2, server.url) {
                let refused = try await Self.curl(["\(base)/healthz"])
                let elsewhere = try await Self.curl(["--interface", "127.0.0.2", "\(base)/healthz"])
                let operators = try await Self.curl(["\(admin)/healthz"])
                #expect(refused.status == 0)
                #expect(elsewhere.body == "ok\n")
                #expect(operators.body == "ok\n")
            }
        }
    }

    @Test func anExemptRangeLiftsThePerAddressCap() async throws {
        try await Self.withServer([
            "--no-persist", "--max-connections-per-address", "1", "--exempt-address", "127.0.0.0/8",
        ]) { server in
            try await Self.holding(3, server.url) {
                let health = try await Self.curl(["http://127.0.0.1:\(server.port)/healthz"])
                #expect(health.body == "ok\n")
            }
        }
    }

    @Test func aBadRangeIsRefusedAtStartUp() async throws {
        let process = try ChildProcess("parlor-server", ["--port", "0", "--no-persist", "--exempt-address", "loopback"])
        let status = await process.waitForExit(timeout: .seconds(30))
        #expect(status != nil && status != 0)
        #expect(process.standardError.contains("--exempt-address: loopback is not an IP address or a CIDR range"), "\(process.standardError)")
    }
}
