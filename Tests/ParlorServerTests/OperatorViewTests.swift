import Foundation
import ParlorTestSupport
import Testing
import WebSocketCore
@testable import ParlorServer

/// Operators keep their view under attack: one address cannot take every connection, the admin port
/// answers when the client slots are full, `/healthz` tells the truth about the store, and `/metrics`
/// can be kept for operators.
@Suite struct OperatorViewTests {
    /// Holds `count` WebSocket connections from 127.0.0.1 open while `body` runs.
    static func holding<R: Sendable>(
        _ count: Int, _ parlor: ParlorHarness, _ body: @Sendable () async throws -> R
    ) async throws -> R {
        guard count > 0 else { return try await body() }
        return try await parlor.connect(signIn: false) { _ in try await holding(count - 1, parlor, body) }
    }

    @Test func oneAddressPastTheConnectionCapWhileAnotherConnectsAndHealthzAnswers() async throws {
        try await withParlor(configure: { $0.limits.maxConnectionsPerAddress = 3 }) { parlor in
            try await Self.holding(3, parlor) {
                await #expect(throws: (any Error).self, "a fourth connection from 127.0.0.1 is refused") {
                    try await parlor.connect(signIn: false) { _ in }
                }
                await #expect(throws: (any Error).self) {
                    try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/healthz")
                }
                // Another address connects, plays and sees the server healthy.
                try await parlor.connect(from: "127.0.0.2") { bo in
                    _ = try await RoomFlowTests.seat(bo, [])
                }
                let health = try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/healthz", from: "127.0.0.2")
                #expect(health.status == 200 && health.text == "ok\n")
            }
            // The connections closed: the address is welcome again.
            await eventually { (try? await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/healthz").status) == 200 }
        }
    }

    @Test func exemptRangesLiftTheCap() async throws {
        let loopback = try AddressRange("127.0.0.0/8")
        try await withParlor(configure: {
            $0.limits.maxConnectionsPerAddress = 1
            $0.limits.exemptAddresses = [loopback]
        }) { parlor in
            let status = try await Self.holding(4, parlor) {
                try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/healthz").status
            }
            #expect(status == 200)
        }
    }

    @Test func theAdminPortAnswersWhenTheClientSlotsAreFull() async throws {
        try await withParlor(configure: {
            $0.limits.maxConnections = 3
            $0.admin.port = 0
        }) { parlor in
            let admin = try #require(try await parlor.server.adminAddress()?.port)
            #expect(admin != parlor.port)
            try await Self.holding(3, parlor) {
                await #expect(throws: (any Error).self, "every client slot is taken") {
                    try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/healthz", from: "127.0.0.2")
                }
                let health = try await RawHTTP.exchange(port: admin, method: "GET", path: "/healthz")
                #expect(health.status == 200 && health.text == "ok\n")
                let metrics = try await RawHTTP.exchange(port: admin, method: "GET", path: "/metrics")
                #expect(metrics.status == 200 && metrics.text.contains("parlor_connections 3"))
            }
            // Only the operators' routes are there, over plain HTTP.
            #expect(try await RawHTTP.exchange(port: admin, method: "POST", path: "/session").status == 404)
            let upgrade = try await WebSocketCoreUpgrade.status(port: admin)
            #expect(upgrade == 404)
        }
    }

    @Test func metricsNeedTheAdminTokenWhenOneIsSet() async throws {
        let token = "operator-secret-0123456789"
        try await withParlor(configure: {
            $0.admin.token = token
            $0.admin.port = 0
        }) { parlor in
            let admin = try #require(try await parlor.server.adminAddress()?.port)
            for port in [parlor.port, admin] {
                let anonymous = try await RawHTTP.exchange(port: port, method: "GET", path: "/metrics")
                #expect(anonymous.status == 401 && anonymous.headers["www-authenticate"] == "Bearer")
                #expect(((anonymous.body as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "UNAUTHENTICATED")
                for wrong in ["operator-secret-012345678", token + "0", "", "OPERATOR-SECRET-0123456789"] {
                    #expect(try await RawHTTP.exchange(port: port, method: "GET", path: "/metrics", token: wrong).status == 401)
                }
                // A user's token is not the operator's.
                #expect(try await RawHTTP.exchange(port: port, method: "GET", path: "/metrics", token: try await QuotaTests.signIn(parlor)).status == 401)
                let allowed = try await RawHTTP.exchange(port: port, method: "GET", path: "/metrics", token: token)
                #expect(allowed.status == 200 && allowed.text.contains("parlor_connections"))
                #expect(try await RawHTTP.exchange(port: port, method: "GET", path: "/healthz").status == 200, "health needs no token")
            }
        }
    }

    @Test func healthzIsUnhealthyWhileTheStoreCannotWrite() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = StoreFixtures.configuration
            // SQLite answers SQLITE_FULL past this many pages, exactly as for a full disk.
            configuration.prepareWriter = { db in try db.execute(sql: "PRAGMA max_page_count = 48") }
            let store = try SQLiteStore(directory: directory, configuration: configuration)
            let clock = ManualClock()
            try await withParlor(store: store, clock: clock, configure: {
                $0.limits.maxGamesPerUser = 1_000
                $0.limits.requestBurst = 10_000
            }) { parlor in
                #expect(try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/healthz").status == 200)
                try await parlor.connect { ann in
                    var failed = false
                    for _ in 0..<2_000 where !failed {
                        let reply = try await ann.call("createRoom", QuotaTests.room)
                        failed = reply.errorCode == "INTERNAL"
                    }
                    #expect(failed, "the database never filled up")
                }
                let sick = try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/healthz")
                #expect(sick.status == 503)
                #expect(sick.text == "unhealthy: the store cannot write (the disk is full)\n")

                // Room again: the next look (once the probe interval has passed) writes and recovers.
                _ = try await store.write("Raising the page limit") { db in try db.execute(sql: "PRAGMA max_page_count = 1000000") }
                #expect(try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/healthz").status == 503, "not probed yet")
                clock.advance(bySeconds: 6)
                #expect(try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/healthz").status == 200)
            }
            await store.close()
        }
    }

    @Test func anIdleServerProbesItsStore() async throws {
        let store = FailingStore()
        let clock = ManualClock()
        try await withParlor(store: store, clock: clock) { parlor in
            #expect(try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/healthz").status == 200)
            store.failsLobbyWrites = true
            #expect(try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/healthz").status == 200, "the last look is recent")
            clock.advance(bySeconds: 6)
            let sick = try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/healthz")
            #expect(sick.status == 503 && sick.text == "unhealthy: the store cannot write (the disk is full)\n")
            store.failsLobbyWrites = false
            clock.advance(bySeconds: 6)
            #expect(try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/healthz").status == 200)
        }
    }
}

/// The HTTP status a server answers a WebSocket upgrade request with.
enum WebSocketCoreUpgrade {
    static func status(port: Int) async throws -> Int {
        let request = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        let response = String(decoding: try await RawSocket.exchange(port: port, bytes: Array(request.utf8)), as: UTF8.self)
        return Int(response.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
