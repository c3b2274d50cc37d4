import ParlorTestSupport
import Testing
import WebSocketCore
@testable import ParlorServer

/// A subscriber that stops reading costs the server one pending version, not a queue: when it reads
/// again it skips to the newest version, its versions still strictly increasing, while everyone else
/// got every version at once.
@Suite struct SlowReaderTests {
    @Test func aSubscriberThatStopsReadingSkipsToTheNewestVersion() async throws {
        try await withParlor(configure: {
            $0.limits.requestBurst = 100_000
            $0.limits.requestsPerSecond = 100_000
            $0.limits.addressRequestBurst = 100_000
            $0.limits.addressRequestsPerSecond = 100_000
            // Small kernel buffers on both sides, so a reader that stops is soon over the high-water mark.
            $0.listener.sendBufferSize = 8192
            $0.listener.webSocket.outboundHighWaterMark = 16 * 1024
            $0.listener.webSocket.outboundLowWaterMark = 4 * 1024
        }) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let code = try await RoomFlowTests.seat(ann, [bo], limit: 350, capacity: 2)
                    _ = try await bo.call("setReady", ["roomCode": code, "playerId": bo.userId!, "ready": true])
                    _ = try await ann.call("startGame", ["roomCode": code])
                    // A spectator with a small socket buffer that reads its first event and then nothing.
                    var configuration = WebSocketClientConfiguration()
                    configuration.receiveBufferSize = 2048
                    try await WebSocketClient.connect(to: parlor.url, configuration: configuration) { webSocket in
                        let slow = JSONConnection(webSocket)
                        let sub = try #require(try await slow.call("observeRoom", ["code": code]).result?["subscription"] as? Int)
                        let first = try #require((try await slow.nextEvent(sub: sub)["data"] as? [String: Any])?["version"] as? Int)

                        let submissions = 3000
                        var last = first
                        for number in 0..<submissions {
                            let reply = try await ann.call(
                                "submitScore", ["roomCode": code, "playerId": ann.userId!, "round": 1, "score": number % 100 + 1])
                            last = try #require(reply.result?["version"] as? Int)
                        }
                        #expect(last == first + submissions)

                        // Now it reads: strictly increasing versions, ending on the last, far fewer than were published.
                        var seen = [first]
                        while seen.last! < last {
                            let event = try await slow.nextEvent(sub: sub)
                            seen.append(try #require((event["data"] as? [String: Any])?["version"] as? Int))
                        }
                        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 < $1 })
                        #expect(seen.last == last)
                        #expect(seen.count < submissions / 2, "\(seen.count) of \(submissions + 1) versions reached the slow reader")
                    }
                }
            }
        }
    }
}
