import Foundation
import Testing
import WebSocketCore

/// The quota, per-address and operator flags through the real `parlor-server`, spoken to with `curl`
/// (installed by `scripts/setup.sh --test`) and our WebSocket client.
@Suite(.serialized) struct HardeningFlagsTests {
    static let adminToken = "e2e-admin-token-0123456789"

    /// Runs `body` with `count` WebSocket connections to `url` held open.
    static func holding(_ count: Int, _ url: String, _ body: @Sendable () async throws -> Void) async throws {
        guard count > 0 else { return try await body() }
        try await WebSocketClient.connect(to: url) { _ in try await holding(count - 1, url, body) }
    }

    @Test func quotasAndTheAdminPortFromTheCommandLine() async throws {
        try await ServerProcess.with([
            "--no-persist", "--max-games-per-user", "1", "--max-connections-per-address", "2",
            "--admin-port", "0", "--admin-token", Self.adminToken,
        ]) { server in
            let (_, adminLine) = try await server.process.waitForLine("admin listening on HOST:PORT") { $0.hasPrefix("admin listening on ") }
            let adminPort = try #require(adminLine.split(separator: ":").last.flatMap { Int($0) })
            let base = "http://127.0.0.1:\(server.port)"
            let admin = "http://127.0.0.1:\(adminPort)"

            // One game per user: the second is QUOTA_EXCEEDED, 429 with Retry-After.
            let session = try await curl(["-X", "POST", "\(base)/session"])
            let token = try #require(
                (try JSONSerialization.jsonObject(with: Data(session.body.utf8)) as? [String: Any])?["token"] as? String)
            let room = ["-X", "POST", "-H", "Authorization: Bearer \(token)", "-H", "Content-Type: application/json",
                        "--data", #"{"pointLimit":150,"pointValue":5,"playerCount":2,"playerName":"Ann"}"#, "\(base)/rooms"]
            #expect(try await curl(room).status == 201)
            let refused = try await curl(room)
            #expect(refused.status == 429 && refused.headers["retry-after"] == "60")
            #expect(refused.body.contains("QUOTA_EXCEEDED"))

            // /metrics wants the admin token, on both ports; /healthz does not.
            #expect(try await curl(["\(base)/metrics"]).status == 401)
            #expect(try await curl(["-H", "Authorization: Bearer \(Self.adminToken)", "\(admin)/metrics"]).status == 200)
            #expect(try await curl(["\(admin)/healthz"]).body == "ok\n")

            // Two connections from 127.0.0.1 fill its share: a third is refused, another address is not,
            // and the admin port answers whatever the client side looks like.
            try await Self.holding(2, server.url) {
                let refused = try await curl(["\(base)/healthz"])
                let elsewhere = try await curl(["--interface", "127.0.0.2", "\(base)/healthz"])
                let operators = try await curl(["\(admin)/healthz"])
                #expect(refused.status == 0)
                #expect(elsewhere.body == "ok\n")
                #expect(operators.body == "ok\n")
            }
        }
    }

    @Test func anExemptRangeLiftsThePerAddressCap() async throws {
        try await ServerProcess.with([
            "--no-persist", "--max-connections-per-address", "1", "--exempt-address", "127.0.0.0/8",
        ]) { server in
            try await Self.holding(3, server.url) {
                let health = try await curl(["http://127.0.0.1:\(server.port)/healthz"])
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

    /// `--commit-delay` is how long a busy writer may hold saves back: bounded, so no flag makes every
    /// save wait seconds. (What it does is `SQLiteGroupCommitTests`' and `PostgresStoreTests`'.)
    @Test func aCommitDelayPastAHundredMillisecondsIsRefused() async throws {
        let process = try ChildProcess("parlor-server", ["--port", "0", "--no-persist", "--places", "none", "--commit-delay", "101"])
        let status = await process.waitForExit(timeout: .seconds(30))
        #expect(status == 64)
        #expect(process.standardError.contains("--commit-delay must be between 0 and 100 milliseconds (got 101)"), "\(process.standardError)")
    }

    @Test func aServerWithTheLongestCommitDelayAnswersSaves() async throws {
        try await ServerProcess.with(["--commit-delay", "100"]) { server in
            try await server.connect { host in
                let reply = try await host.call("createRoom", ["pointLimit": 350, "pointValue": 10, "playerCount": 2, "playerName": "Host"])
                #expect(reply.result?["room"] != nil, "\(reply)")
            }
            #expect(try await curl(["http://127.0.0.1:\(server.port)/healthz"]).body == "ok\n")
        }
    }
}
