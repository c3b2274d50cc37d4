import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// `/metrics` as a scraper reads it from the real server: every metric explains itself (`# HELP`,
/// `# TYPE`), the text parses, the process's own figures are there, games are counted by phase, and the
/// broadcast histogram holds broadcasts only — not a new subscriber's first snapshot.
@Suite struct MetricsExpositionTests {
    static func scrape(_ parlor: ParlorHarness) async throws -> PrometheusText {
        let (status, body) = try await parlor.http("GET", "/metrics")
        #expect(status == 200)
        return try PrometheusText(try #require(body as? String))
    }

    @Test func everyMetricHasHelpAndTypeAndTheTextParses() async throws {
        try await withParlor(games: CounterGameTests.games) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let code = try await RoomFlowTests.seat(ann, [bo])
                    let sub = try #require(try await bo.call("observeRoom", ["code": code]).result?["subscription"] as? Int)
                    _ = try await bo.nextEvent(sub: sub)
                    _ = try await bo.call("setReady", ["roomCode": code, "playerId": bo.userId!, "ready": true])
                    _ = try await ann.call("getRoom", ["code": "ZZZZZZ"])
                    _ = try await CounterGameTests.create(ann)
                    let metrics = try await Self.scrape(parlor)
                    for (name, family) in metrics.families {
                        #expect(family.help?.isEmpty == false, "\(name) has no # HELP")
                        #expect(family.type != nil, "\(name) has no # TYPE")
                    }
                    #expect(metrics.families["parlor_broadcast_latency_seconds"]?.type == "histogram")
                    #expect(metrics.families["parlor_operations_total"]?.type == "counter")
                    #expect(metrics.value("parlor_operations_total", ["op": "getRoom", "outcome": "ROOM_NOT_FOUND"]) == 1)
                    #expect(metrics.value("parlor_connections") == 2)

                    // The process as the system sees it, and the bytes both transports moved.
                    #expect((metrics.value("process_resident_memory_bytes") ?? 0) > 1_000_000)
                    #expect((metrics.value("process_cpu_seconds_total") ?? 0) > 0)
                    #expect((metrics.value("process_open_fds") ?? 0) >= 3)
                    #expect((metrics.value("process_max_fds") ?? 0) >= (metrics.value("process_open_fds") ?? .infinity))
                    #expect(metrics.families["process_cpu_seconds_total"]?.type == "counter")
                    for direction in ["parlor_received_bytes_total", "parlor_sent_bytes_total"] {
                        #expect((metrics.value(direction, ["transport": "websocket"]) ?? 0) > 0, "\(direction) websocket")
                    }
                    // This scrape's own request is HTTP; the upgrades' requests and 101s were too.
                    #expect((metrics.value("parlor_received_bytes_total", ["transport": "http"]) ?? 0) > 0)
                    #expect((metrics.value("parlor_sent_bytes_total", ["transport": "http"]) ?? 0) > 0)

                    // A second scrape sees the first one's answer among the bytes sent over HTTP.
                    let before = metrics.value("parlor_sent_bytes_total", ["transport": "http"]) ?? 0
                    let again = try await Self.scrape(parlor)
                    #expect((again.value("parlor_sent_bytes_total", ["transport": "http"]) ?? 0) > before + 1000)
                }
            }
        }
    }

    @Test func gamesAreCountedByKindAndPhase() async throws {
        try await withParlor(games: CounterGameTests.games) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let code = try await RoomFlowTests.seat(ann, [bo])
                    var metrics = try await Self.scrape(parlor)
                    #expect(metrics.value("parlor_games", ["kind": "rummy", "phase": "waiting"]) == 1)
                    #expect(metrics.value("parlor_games", ["kind": "rummy", "phase": "playing"]) == 0)
                    #expect(metrics.value("parlor_games", ["kind": "word-lobby", "phase": "waiting"]) == 0)
                    #expect(metrics.value("parlor_rooms") == 1)

                    _ = try await bo.call("setReady", ["roomCode": code, "playerId": bo.userId!, "ready": true])
                    #expect(try await ann.call("startGame", ["roomCode": code]).result?["isStarted"] as? Bool == true)
                    let counter = try await CounterGameTests.create(ann)
                    _ = try await ann.call("press", ["counterId": counter.id, "times": 1])
                    _ = try await ann.call("closeCounter", ["counterId": counter.id])
                    metrics = try await Self.scrape(parlor)
                    #expect(metrics.value("parlor_games", ["kind": "rummy", "phase": "waiting"]) == 0)
                    #expect(metrics.value("parlor_games", ["kind": "rummy", "phase": "playing"]) == 1)
                    #expect(metrics.value("parlor_games", ["kind": "counter", "phase": "finished"]) == 1)

                    // A game that goes is no longer counted in any phase.
                    _ = try await ann.call("leaveCounter", ["counterId": counter.id])
                    metrics = try await Self.scrape(parlor)
                    #expect(metrics.value("parlor_games", ["kind": "counter", "phase": "finished"]) == 0)
                }
            }
        }
    }

    @Test func aNewSubscribersFirstSnapshotIsNotABroadcast() async throws {
        try await withParlor { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let code = try await RoomFlowTests.seat(ann, [bo])
                    // Two subscribers join and each gets the room as it is: no broadcast yet.
                    for client in [ann, bo] {
                        let sub = try #require(try await client.call("observeRoom", ["code": code]).result?["subscription"] as? Int)
                        #expect(try await client.nextEvent(sub: sub)["event"] as? String == "room")
                    }
                    try await Task.sleep(for: .milliseconds(200))
                    #expect(try await Self.scrape(parlor).value("parlor_broadcast_latency_seconds_count") == 0)

                    // A change is broadcast to both: counted once the frames are written.
                    _ = try await bo.call("setReady", ["roomCode": code, "playerId": bo.userId!, "ready": true])
                    var count = 0.0
                    for _ in 0..<50 where count == 0 {
                        count = try await Self.scrape(parlor).value("parlor_broadcast_latency_seconds_count") ?? 0
                        if count == 0 { try await Task.sleep(for: .milliseconds(20)) }
                    }
                    #expect(count >= 1)
                    #expect(count <= 2, "one sample per version per event loop")
                }
            }
        }
    }
}
