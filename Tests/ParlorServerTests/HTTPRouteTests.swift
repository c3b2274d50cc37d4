import Foundation
import ParlorTestSupport
import Logging
import WebSocketCore
import Testing
@testable import ParlorServer

@Suite struct HTTPRouteTests {
    @Test func theSeedsRESTFormsShareTheService() async throws {
        try await withParlor { parlor in
            let (status, session) = try await parlor.http("POST", "/session")
            #expect(status == 200)
            let ann = try #require((session as? [String: Any])?["token"] as? String)
            let annId = try #require((session as? [String: Any])?["userId"] as? String)
            let bo = try #require((try await parlor.http("POST", "/session").1 as? [String: Any])?["token"] as? String)

            let (createdStatus, created) = try await parlor.http(
                "POST", "/rooms", body: ["pointLimit": 100, "pointValue": 10, "playerCount": 2, "playerName": "Ann"], token: ann)
            #expect(createdStatus == 201)
            let code = try #require(((created as? [String: Any])?["room"] as? [String: Any])?["id"] as? String)

            let (joinStatus, joined) = try await parlor.http("POST", "/rooms/\(code)/players", body: ["playerName": "Bo"], token: bo)
            #expect(joinStatus == 200)
            let boId = try #require((joined as? [String: Any])?["currentUserId"] as? String)
            #expect(try await parlor.http("PUT", "/rooms/\(code)/players/\(boId)/ready", body: ["ready": true], token: bo).0 == 200)
            let (startStatus, started) = try await parlor.http("POST", "/rooms/\(code)/start", token: ann)
            #expect(startStatus == 200 && (started as? [String: Any])?["isStarted"] as? Bool == true)
            #expect(try await parlor.http("POST", "/rooms/\(code)/scores", body: ["playerId": boId, "round": 1, "score": 150], token: bo).0 == 200)
            let (_, finished) = try await parlor.http("POST", "/rooms/\(code)/next-round", token: ann)
            #expect((finished as? [String: Any])?["isFinished"] as? Bool == true)

            let (getStatus, room) = try await parlor.http("GET", "/rooms/\(code)")
            #expect(getStatus == 200 && (room as? [String: Any])?["id"] as? String == code)
            let (gamesStatus, games) = try await parlor.http("GET", "/users/\(annId)/games?limit=5", token: ann)
            #expect(gamesStatus == 200 && ((games as? [String: Any])?["games"] as? [Any])?.count == 1)
            #expect(try await parlor.http("GET", "/users/\(boId)/games", token: ann).0 == 403)

            #expect(try await parlor.http("DELETE", "/rooms/\(code)/players/\(boId)", token: bo).0 == 204)
            #expect(try await parlor.http("DELETE", "/rooms/\(code)/players/\(annId)", token: ann).0 == 204)

            // Errors: the seed's body, with the code's HTTP status.
            let (missingStatus, missing) = try await parlor.http("GET", "/rooms/\(code)")
            #expect(missingStatus == 404)
            let error = try #require((missing as? [String: Any])?["error"] as? [String: Any])
            #expect(error["code"] as? String == "ROOM_NOT_FOUND" && error["status"] as? String == "not-found")
            #expect(try await parlor.http("GET", "/rooms/nope").0 == 400)
            #expect(try await parlor.http("POST", "/rooms", body: ["pointLimit": 100]).0 == 401)
            let (badStatus, bad) = try await parlor.http("POST", "/rooms", body: ["pointLimit": 100], token: ann)
            #expect(badStatus == 400 && ((bad as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "BAD_REQUEST")
            #expect(try await parlor.http("PATCH", "/rooms").0 == 405)
            #expect(try await parlor.http("GET", "/nowhere").0 == 404)
            #expect(try await parlor.http("GET", "/ws").0 == 426)
        }
    }

    @Test func healthAndMetrics() async throws {
        try await withParlor { parlor in
            #expect(try await parlor.http("GET", "/healthz").0 == 200)
            try await parlor.connect { client in
                _ = try await RoomFlowTests.seat(client, [])
                _ = try await client.call("getRoom", ["code": "ZZZZZZ"])
                let (status, body) = try await parlor.http("GET", "/metrics")
                let text = try #require(body as? String)
                #expect(status == 200)
                #expect(text.contains(#"parlor_operations_total{op="createRoom",outcome="ok"} 1"#))
                #expect(text.contains(#"parlor_operations_total{op="getRoom",outcome="ROOM_NOT_FOUND"} 1"#))
                #expect(text.contains("parlor_connections 1"))
                #expect(text.contains("parlor_rooms 1"))
                #expect(text.contains("parlor_broadcast_latency_seconds"))
            }
        }
    }

    /// WebSocketCore sends no `Server` header unless told to; Parlor tells it, so responses still name it.
    @Test func responsesNameParlorInTheServerHeader() async throws {
        try await withParlor { parlor in
            let health = try await CatalogSyncTests.get(parlor, "/healthz")
            #expect(health.headers["server"] == "Parlor")
        }
    }
}

@Suite struct LifecycleTests {
    /// SIGTERM's path: the client gets 1001 after its in-flight request is answered.
    @Test func gracefulShutdownClosesClientsWith1001() async throws {
        var configuration = ServerConfiguration()
        configuration.listener.port = 0
        configuration.persist = false
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let server = try await ParlorServer(configuration: configuration, store: InMemoryStore(), logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            let port = try await server.localAddress().port!
            let status = try await WebSocketClient.connect(to: "ws://127.0.0.1:\(port)/ws") { ws in
                try await ws.send(text: #"{"id":1,"op":"hello"}"#)
                var inbound = ws.inbound.makeAsyncIterator()
                _ = try await inbound.next()
                server.beginGracefulShutdown()
                while try await inbound.next() != nil {}
                return await ws.closeStatus
            }
            #expect(status == WebSocketCloseStatus(code: .goingAway, reason: "server shutting down"))
            try await group.waitForAll()
        }
    }

    /// Rooms with nobody connected and no change for the expiry time are deleted; observers get null and end.
    @Test func abandonedRoomsExpireOnTheInjectedClock() async throws {
        let clock = ManualClock()
        try await withParlor(clock: clock, configure: {
            $0.roomExpiry = .hours(24)
            // These rooms have only their creators: give them the long expiry too (the short one is
            // ExpiryTests').
            $0.unjoinedGameExpiry = .hours(24)
        }) { parlor in
            let (abandoned, _) = try await parlor.connect { (try await RoomFlowTests.seat($0, []), $0.token!) }
            try await parlor.connect { present in
                let occupied = try await RoomFlowTests.seat(present, [])
                try await parlor.connect(signIn: false) { spectator in
                    let sub = try #require(try await spectator.call("observeRoom", ["code": abandoned]).result?["subscription"] as? Int)
                    _ = try await spectator.nextEvent(sub: sub)
                    clock.advance(bySeconds: 23 * 3600)
                    #expect(await parlor.services.expireAbandonedRooms() == 0)
                    clock.advance(bySeconds: 2 * 3600)
                    // The abandoned room goes; the one whose player is connected stays.
                    #expect(await parlor.services.expireAbandonedRooms() == 1)
                    #expect(try await spectator.nextEvent(sub: sub)["data"] is NSNull)
                    #expect(try await spectator.nextEvent(sub: sub)["event"] as? String == "end")
                    #expect(try await present.call("getRoom", ["code": occupied]).result != nil)
                    #expect(try await present.call("getRoom", ["code": abandoned]).errorCode == "ROOM_NOT_FOUND")
                }
            }
        }
    }
}
