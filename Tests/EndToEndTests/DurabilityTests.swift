import Foundation
import NIOConcurrencyHelpers
import ParlorTestSupport
import Testing
import WebSocketCore

/// Durability against the real parlor-server and its SQLite store: `kill -9` mid-write loses nothing
/// that was acknowledged and half-applies nothing; a graceful restart gives clients their seats back.
@Suite(.serialized) struct DurabilityTests {
    private struct Room: Sendable {
        let code: String
        let hostToken: String
        let hostId: String
        /// The version once the game started; every score write after it adds exactly one.
        let startedVersion: Int
    }


    private func seatAndStart(_ server: ServerProcess) async throws -> Room {
        try await server.connect { host in
            let created = try await host.call("createRoom", ["pointLimit": 350, "pointValue": 10, "playerCount": 2, "playerName": "Host"])
            let code = try #require((created.result?["room"] as? [String: Any])?["id"] as? String)
            try await server.connect { guest in
                let joined = try await guest.call("joinRoom", ["code": code, "playerName": "Guest"])
                let ready = try await guest.call("setReady", ["roomCode": code, "playerId": guest.userId!, "ready": true])
                #expect(joined.result != nil && ready.result != nil)
            }
            let started = try #require(try await host.call("startGame", ["roomCode": code]).result)
            return Room(code: code, hostToken: host.token!, hostId: host.userId!, startedVersion: try #require(started["version"] as? Int))
        }
    }

    @Test func killNineLosesNothingAcknowledgedAndHalfAppliesNothing() async throws {
        let server = try await ServerProcess.start()
        var rooms: [Room] = []
        for _ in 0..<6 { rooms.append(try await seatAndStart(server)) }

        // Each room's host writes round-1 scores 1, 2, 3, … as fast as acknowledgements come back.
        let acknowledged = NIOLockedValueBox([String: Int]())
        let sent = NIOLockedValueBox([String: Int]())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for room in rooms {
                group.addTask {
                    try? await server.connect(token: room.hostToken) { host in
                        var score = 0
                        while score < 1000 {
                            score += 1
                            sent.withLockedValue { $0[room.code] = score }
                            let reply = try await host.call("submitScore", ["roomCode": room.code, "playerId": room.hostId, "round": 1, "score": score])
                            guard reply.result != nil else { return }
                            acknowledged.withLockedValue { $0[room.code] = score }
                        }
                    }
                }
            }
            // Kill while writes are in flight.
            try await Task.sleep(for: .milliseconds(800))
            await server.stop(signal: SIGKILL)
            try await group.waitForAll()
        }
        let acked = acknowledged.withLockedValue { $0 }
        #expect(acked.values.reduce(0, +) > 0, "some writes must have been acknowledged before the kill")

        let restarted = try await ServerProcess.start(dataDirectory: server.dataDirectory)
        defer { Task { await restarted.stop() } }
        try await restarted.connect { client in
            for room in rooms {
                let stored = try #require(try await client.call("getRoom", ["code": room.code]).result, "room \(room.code) was acknowledged")
                let players = try #require(stored["players"] as? [[String: Any]])
                let host = try #require(players.first { $0["id"] as? String == room.hostId })
                let score = try #require((host["scores"] as? [Int])?.first)
                let lastAcked = acked[room.code] ?? 0
                let lastSent = sent.withLockedValue { $0[room.code] ?? 0 }
                #expect(score >= lastAcked, "room \(room.code): acknowledged \(lastAcked) but found \(score)")
                #expect(score <= lastSent)
                // Nothing half-applied: the stored version is exactly the started version plus the writes in it.
                #expect(stored["version"] as? Int == room.startedVersion + score)
            }
        }
        await restarted.stop()
    }

    @Test func gracefulRestartGivesReconnectingClientsTheirSeats() async throws {
        let server = try await ServerProcess.start()
        let room = try await seatAndStart(server)
        // SIGTERM: a connected client is closed with 1001.
        let closeStatus = try await WebSocketClient.connect(to: server.url) { ws in
            let client = JSONConnection(ws)
            try await client.hello(token: room.hostToken)
            _ = try await client.call("submitScore", ["roomCode": room.code, "playerId": room.hostId, "round": 1, "score": 42])
            Task { await server.stop() }
            while (try? await client.nextFrame(timeout: .seconds(30))) != nil {}
            return await ws.closeStatus
        }
        #expect(closeStatus.code == .goingAway)

        let restarted = try await ServerProcess.start(dataDirectory: server.dataDirectory)
        try await restarted.connect(token: room.hostToken) { host in
            #expect(host.userId == room.hostId)
            let rejoined = try await host.call("joinRoom", ["code": room.code, "playerName": "Somebody"])
            let seat = try #require(((rejoined.result?["room"] as? [String: Any])?["players"] as? [[String: Any]])?.first { $0["id"] as? String == room.hostId })
            #expect(seat["name"] as? String == "Host" && seat["isModerator"] as? Bool == true)
            #expect((seat["scores"] as? [Int])?.first == 42)
            let sub = try #require(try await host.call("observeRoom", ["code": room.code]).result?["subscription"] as? Int)
            let event = try await host.nextEvent(sub: sub)
            #expect((event["data"] as? [String: Any])?["version"] as? Int == room.startedVersion + 1)
        }
        await restarted.stop()
    }

    @Test func startUpRefusesACorruptDatabaseWithAClearError() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-corrupt-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: directory + "/parlor.sqlite"))
        do {
            let server = try await ServerProcess.start(dataDirectory: directory)
            await server.stop()
            Issue.record("the server started over a corrupt database")
        } catch let error as ServerDidNotStart {
            #expect(error.log.contains("parlor-server cannot start"), "\(error.log)")
            #expect(error.log.contains("parlor.sqlite"), "\(error.log)")
        }
        // The file is left as it was for the operator to inspect.
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/parlor.sqlite")) == Data(repeating: 0x42, count: 8192))
    }

    @Test func aSecondServerOnTheSameDataDirectoryIsRefused() async throws {
        let first = try await ServerProcess.start()
        do {
            let second = try await ServerProcess.start(dataDirectory: first.dataDirectory)
            await second.stop()
            Issue.record("two servers shared one data directory")
        } catch let error as ServerDidNotStart {
            #expect(error.log.contains("Another parlor-server is already using the data directory"), "\(error.log)")
        }
        #expect(first.isRunning)
        await first.stop()
    }
}
