import Foundation
import NIOConcurrencyHelpers
import ParlorTestSupport
import Testing
import WebSocketCore

/// Darts matches against the real parlor-server and its SQLite store: an acknowledged visit survives
/// `kill -9`, nothing is half-applied, and the restarted server brings every match back with its turn.
@Suite(.serialized) struct DartsDurabilityTests {
    private struct Match: Sendable {
        let code: String
        let hostToken: String
        let hostId: String
        let guestId: String
        let startedVersion: Int
    }


    /// A started 501 match of a host and a guest the host scores for.
    private func start(_ server: ServerProcess) async throws -> Match {
        try await server.connect { host in
            let created = try await host.call("createMatch", ["gameType": "501", "playerName": "Host"])
            let code = try #require((created.result?["match"] as? [String: Any])?["id"] as? String)
            let added = try #require(try await host.call("addGuest", ["code": code, "name": "Guest"]).result)
            let guestId = try #require(((added["players"] as? [[String: Any]])?.last)?["id"] as? String)
            let started = try #require(try await host.call("startMatch", ["code": code]).result)
            return Match(code: code, hostToken: host.token!, hostId: host.userId!, guestId: guestId,
                         startedVersion: try #require(started["version"] as? Int))
        }
    }

    @Test func killNineLosesNoAcknowledgedVisitAndEveryMatchComesBack() async throws {
        let server = try await ServerProcess.start()
        var matches: [Match] = []
        for _ in 0..<4 { matches.append(try await start(server)) }

        // Each host enters visits of 1 for the host and the guest in turn, as fast as they are acknowledged.
        let acknowledged = NIOLockedValueBox([String: Int]())
        let sent = NIOLockedValueBox([String: Int]())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for match in matches {
                group.addTask {
                    try? await server.connect(token: match.hostToken) { host in
                        var visits = 0
                        while visits < 400 {
                            let player = visits % 2 == 0 ? match.hostId : match.guestId
                            visits += 1
                            sent.withLockedValue { $0[match.code] = visits }
                            let reply = try await host.call("recordVisit", ["code": match.code, "playerId": player, "total": 1])
                            guard reply.result != nil else { return }
                            acknowledged.withLockedValue { $0[match.code] = visits }
                        }
                    }
                }
            }
            try await Task.sleep(for: .milliseconds(800))
            await server.stop(signal: SIGKILL)
            try await group.waitForAll()
        }
        let acked = acknowledged.withLockedValue { $0 }
        #expect(acked.values.reduce(0, +) > 0, "some visits must have been acknowledged before the kill")

        let restarted = try await ServerProcess.start(dataDirectory: server.dataDirectory)
        try await restarted.connect { client in
            for match in matches {
                let stored = try #require(try await client.call("getMatch", ["code": match.code]).result, "match \(match.code) was acknowledged")
                let visits = try #require(stored["version"] as? Int) - match.startedVersion
                let lastAcked = acked[match.code] ?? 0
                let lastSent = sent.withLockedValue { $0[match.code] ?? 0 }
                #expect(visits >= lastAcked && visits <= lastSent, "match \(match.code): acknowledged \(lastAcked), sent \(lastSent), found \(visits)")
                // Nothing half-applied: the scores and the turn are exactly those of `visits` visits.
                let players = try #require(stored["players"] as? [[String: Any]])
                #expect(players.map { $0["remaining"] as? Int } == [501 - (visits + 1) / 2, 501 - visits / 2])
                #expect(stored["currentPlayerId"] as? String == (visits % 2 == 0 ? match.hostId : match.guestId))
            }
            // The match goes on after the restart, for its host.
            let match = matches[0]
            try await restarted.connect(token: match.hostToken) { host in
                let before = try #require(try await host.call("getMatch", ["code": match.code]).result)
                let player = try #require(before["currentPlayerId"] as? String)
                let after = try #require(try await host.call("recordVisit", ["code": match.code, "playerId": player, "total": 60]).result)
                #expect(after["version"] as? Int == (before["version"] as? Int).map { $0 + 1 })
            }
        }
        await restarted.stop()
    }
}
