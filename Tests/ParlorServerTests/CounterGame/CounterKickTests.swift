import Foundation
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// The kernel's kick (`GameHost.kick`) for a game with secrets whose rules end nobody's streams: the
/// removed player's subscription ends because the rules no longer let them watch; the others' go on.
@Suite struct CounterKickTests {
    @Test func aRemovedMembersStreamEndsAndTheOthersGoOn() async throws {
        try await withParlor(games: CounterGameTests.games) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let counter = try await CounterGameTests.create(ann)
                    _ = try await bo.call("joinCounter", ["code": counter.code])
                    let annSub = try await CounterGameTests.observe(ann, counter.id)
                    let boSub = try await CounterGameTests.observe(bo, counter.id)
                    let boId = try #require(bo.userId)
                    #expect(try await bo.call("removeCounterPlayer", ["code": counter.code, "playerId": try #require(ann.userId)]).errorCode
                        == "INVALID_INPUT")
                    let removed = try await ann.call("removeCounterPlayer", ["code": counter.code, "playerId": boId])
                    #expect(removed.result?["players"] as? Int == 1, "\(removed)")
                    while try await bo.nextEvent(sub: boSub)["event"] as? String != "end" {}
                    #expect(try await bo.call("observeCounter", ["counterId": counter.id]).errorCode == "FORBIDDEN")
                    _ = try await ann.call("press", ["counterId": counter.id, "times": 2])
                    _ = try await CounterGameTests.nextCounter(ann, annSub) { $0["count"] as? Int == 2 }
                }
            }
        }
    }
}
