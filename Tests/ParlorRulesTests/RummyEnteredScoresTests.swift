import Foundation
import Testing
@testable import ParlorRules

/// A round nobody entered counts 0, as a round won does; `entered` tells them apart.
@Suite struct RummyEnteredScoresTests {
    @Test func enteringZeroIsAChangeAndMarksTheRound() throws {
        var room = try RummyGameTests.started(players: 2)
        #expect(room.player(user(2))?.entered == [false, false, false, false, false, false])
        let version = room.version
        #expect(try room.apply(.submitScore(playerId: user(2), round: 1, score: 0), by: user(2), at: t0)
                == [.scoreSubmitted(user(2), round: 1, score: 0)])
        #expect(room.version == version + 1)
        #expect(room.player(user(2))?.entered == [true, false, false, false, false, false])
        // Entering the same 0 again is the no-op.
        #expect(try room.apply(.submitScore(playerId: user(2), round: 1, score: 0), by: user(2), at: t0) == [])
        #expect(room.player(user(1))?.entered.first == false)
    }

    @Test func aPlayerStoredBeforeEnteredReadsItFromTheScores() throws {
        let stored = #"{"id":"\#(user(2).rawValue)","name":"Bo","isReady":true,"isModerator":false,"scores":[25,0,7,0,0,0]}"#
        let player = try JSONDecoder().decode(RummyPlayer.self, from: Data(stored.utf8))
        #expect(player.entered == [true, false, true, false, false, false])
        let roundTrip = try JSONDecoder().decode(RummyPlayer.self, from: JSONEncoder().encode(player))
        #expect(roundTrip == player)
    }
}
