import Foundation
import Logging
import ParlorRules
import ParlorTestSupport
import ParlorWire
import Testing
@testable import ParlorServer

/// Word rounds end by a scheduled action on a manual clock: the store sees every step, restored rounds
/// are re-armed (or ended at once when their time passed while the server was down), and stopping the
/// server cancels every pending timer. No test sleeps: after moving the clock, each waits until the
/// timers due have fired and been applied (`GameTimers.settled`).
@Suite struct LobbyTimerTests {
    static func stored(_ store: InMemoryStore, _ id: String) async throws -> WordLobby? {
        try await store.loadLobbies().first { $0.lobbyId == id }
    }

    @Test func aRoundEndsAtItsDeadlineAndTheStoreSeesEachStep() async throws {
        let store = InMemoryStore()
        let clock = ManualClock()
        try await withParlor(store: store, clock: clock, configure: LobbyFixture.configure) { parlor in
            try await parlor.connect { ann in
                let lobby = try await LobbyFixture.create(ann)
                _ = try await ann.call("startGame", ["lobbyId": lobby.id, "gameId": "word-start-s"])
                let reply = try await LobbyFixture.submit(ann, lobby.id, "swan")
                #expect(reply["accepted"] as? Bool == true && reply["word"] as? String == "swan")
                let deadline = clock.now.adding(seconds: 90)
                let running = try #require(try await Self.stored(store, lobby.id))
                #expect(running.status == .game && running.round?.deadline == deadline)
                let schedule = try #require(try await store.loadGames(WordLobbyGame.kind).first { $0.id == lobby.id }).schedule
                #expect(try GameSchedule<WordLobbyAction>(json: schedule).entries
                    == [ScheduledAction(key: "round-end", due: deadline, action: .endRound(round: 1))])

                // The round's end, and presence's settle (Ann sat down in a game): friends hear of it a second later.
                await eventually { clock.sleeperCount == 2 }
                clock.advance(to: deadline.adding(milliseconds: -1))
                await parlor.services.timers.settled()
                #expect(try await Self.stored(store, lobby.id)?.status == .game)
                #expect(clock.sleeperCount == 1)
                clock.advance(to: deadline)
                await parlor.services.timers.settled()
                let ended = try #require(try await Self.stored(store, lobby.id))
                #expect(ended.status == .open)
                #expect(ended.lastRound?.players.first?.points == 2 && ended.players.first?.score == 2)
                #expect(ended.lastRound?.endedAt == deadline)
                #expect(clock.sleeperCount == 0)
                // The round's end consumed its scheduled action, in the same save.
                #expect(try await store.loadGames(WordLobbyGame.kind).first { $0.id == lobby.id }?.schedule == "[]")
            }
        }
    }

    @Test func stoppingCancelsEveryPendingTimer() async throws {
        let clock = ManualClock()
        try await withParlor(clock: clock, configure: LobbyFixture.configure) { parlor in
            try await parlor.connect { ann in
                for _ in 0..<3 {
                    let lobby = try await LobbyFixture.create(ann)
                    _ = try await ann.call("startGame", ["lobbyId": lobby.id])
                }
            }
            // Three rounds' ends, and presence's settle.
            await eventually { clock.sleeperCount == 4 }
            #expect(parlor.services.timers.armedCount == 4)
        }
        #expect(clock.sleeperCount == 0)
    }

    @Test func restoredRoundsAreReArmedOrEndedAtOnce() async throws {
        let store = InMemoryStore()
        let clock = ManualClock()
        let (overdue, pending) = try await withParlor(store: store, clock: clock, configure: LobbyFixture.configure) { parlor in
            try await parlor.connect { ann in
                let overdue = try await LobbyFixture.create(ann)
                _ = try await ann.call("startGame", ["lobbyId": overdue.id, "gameId": "word-lightning-start-p"])  // 30 s
                let pending = try await LobbyFixture.create(ann)
                _ = try await ann.call("startGame", ["lobbyId": pending.id, "gameId": "word-start-s"])  // 90 s
                return (overdue, pending)
            }
        }
        // The server stopped with both rounds running; 60 s later a new server opens the same store.
        clock.advance(bySeconds: 60)
        try await withParlor(store: store, clock: clock, configure: LobbyFixture.configure) { (parlor: ParlorHarness) async throws in
            #expect(parlor.services.lobbyDirectory.count == 2)
            await parlor.services.timers.settled()
            #expect(try await Self.stored(store, overdue.id)?.status == .open)
            #expect(try await Self.stored(store, overdue.id)?.lastRound?.endedAt == clock.now)
            #expect(try await Self.stored(store, pending.id)?.status == .game)
            // The pending round's end, and presence's settle (the restored lobbies have players).
            await eventually { clock.sleeperCount == 2 }
            clock.advance(bySeconds: 30)
            await parlor.services.timers.settled()
            #expect(try await Self.stored(store, pending.id)?.status == .open)
        }
    }
}
