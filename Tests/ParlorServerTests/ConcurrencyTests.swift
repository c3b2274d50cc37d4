import Foundation
import ParlorTestSupport
import NIOConcurrencyHelpers
import Testing
@testable import ParlorServer

@Suite struct ConcurrencyTests {
    /// Eight players hammer one room at once while four observers watch: every observer sees versions
    /// strictly increasing and ends on the same final room, and no write is lost.
    @Test func manyClientsChangingOneRoomLoseNothing() async throws {
        let players = 8
        let writesEach = 25
        try await withParlor(configure: { $0.limits.requestBurst = 1000; $0.limits.requestsPerSecond = 1000 }) { parlor in
            // Seat everyone and start the game.
            let host = try await parlor.connect { host in
                (token: host.token!, code: try await RoomFlowTests.seat(host, [], limit: 350, capacity: players))
            }
            var tokens = [host.token]
            for _ in 1..<players {
                let token = try await parlor.connect { guest in
                    _ = try await guest.call("joinRoom", ["code": host.code, "playerName": "P"])
                    _ = try await guest.call("setReady", ["roomCode": host.code, "playerId": guest.userId!, "ready": true])
                    return guest.token!
                }
                tokens.append(token)
            }
            try await parlor.connect(token: host.token) { _ = try await $0.call("startGame", ["roomCode": host.code]) }

            let lastWrites = NIOLockedValueBox([String: Int]())
            let observed = try await withThrowingTaskGroup(of: (versions: [Int], final: String)?.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await parlor.connect(signIn: false) { observer in
                            let sub = try #require(try await observer.call("observeRoom", ["code": host.code]).result?["subscription"] as? Int)
                            var versions: [Int] = []
                            var last = ""
                            let target = 1 + (players - 1) * 2 + 1 + players * writesEach + 1  // see below
                            while versions.last ?? 0 < target {
                                let event = try await observer.nextEvent(sub: sub, timeout: .seconds(20))
                                let data = try #require(event["data"] as? [String: Any])
                                versions.append(try #require(data["version"] as? Int))
                                last = String(decoding: try JSONSerialization.data(withJSONObject: data, options: .sortedKeys), as: UTF8.self)
                            }
                            return (versions, last)
                        }
                    }
                }
                try await Task.sleep(for: .milliseconds(100))  // let the observers subscribe
                for (index, token) in tokens.enumerated() {
                    group.addTask {
                        try await parlor.connect(token: token) { player in
                            for write in 1...writesEach {
                                // Distinct values, so every write is a change.
                                let score = index * 100 + write
                                let reply = try await player.call("submitScore", ["roomCode": host.code, "playerId": player.userId!, "round": 1, "score": score])
                                #expect(reply.result != nil)
                            }
                            lastWrites.withLockedValue { $0[player.userId!] = index * 100 + writesEach }
                        }
                        return nil
                    }
                }
                // One more change after all writes, so observers know when to stop.
                var results: [(versions: [Int], final: String)] = []
                var writers = 0
                while let next = try await group.next() {
                    if let next { results.append(next) } else {
                        writers += 1
                        if writers == players {
                            try await parlor.connect(token: host.token) { _ = try await $0.call("nextRound", ["roomCode": host.code]) }
                        }
                    }
                }
                return results
            }
            // Version arithmetic: created 1, each join +1, each ready +1, start +1, every write +1, nextRound +1.
            let finalVersion = 1 + (players - 1) * 2 + 1 + players * writesEach + 1
            #expect(observed.count == 4)
            for run in observed {
                #expect(zip(run.versions, run.versions.dropFirst()).allSatisfy { $0 < $1 }, "versions must strictly increase")
                #expect(run.versions.last == finalVersion)
                #expect(run.final == observed[0].final)
            }
            let expected = lastWrites.withLockedValue { $0 }
            try await parlor.connect(signIn: false) { observer in
                let room = try #require(try await observer.call("getRoom", ["code": host.code]).result)
                #expect(room["version"] as? Int == finalVersion)
                for player in try #require(room["players"] as? [[String: Any]]) {
                    let scores = try #require(player["scores"] as? [Int])
                    #expect(scores[0] == expected[player["id"] as? String ?? ""])
                }
            }
        }
    }
}
