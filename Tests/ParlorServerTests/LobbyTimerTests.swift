import Foundation
import ParlorTestSupport
import Logging
import ParlorRules
import ParlorWire
import Testing
@testable import ParlorServer

/// The lobby actors and their round timers on a manual clock, without sockets: the store sees every
/// step, restored rounds are re-armed, and stopping the server cancels every pending timer.
@Suite struct LobbyTimerTests {
    static let ann = UserID("00000000-0000-4000-8000-000000000001")!
    static let bo = UserID("00000000-0000-4000-8000-000000000002")!

    static func services(_ store: any ParlorStore, _ clock: ManualClock) async throws -> ParlorServices {
        var configuration = ServerConfiguration()
        LobbyFixture.configure(&configuration)
        var logger = Logger(label: "parlor.test")
        logger.logLevel = .warning
        return try await ParlorServices(configuration: configuration, store: store, clock: clock, logger: logger)
    }

    static func create(_ services: ParlorServices) async throws -> CreateLobbyResult {
        let args = CreateLobbyArguments(user: LobbyUserArguments(username: "Ann", colorNumber: 1, emojiNumber: 2))
        return try WireJSON.decode(CreateLobbyResult.self, from: try await services.lobbies.createLobby(args, by: ann).bytes)
    }

    static func stored(_ store: InMemoryStore, _ id: String) async throws -> WordLobby? {
        try await store.loadLobbies().first { $0.lobbyId == id }
    }

    @Test func aRoundEndsAtItsDeadlineAndTheStoreSeesEachStep() async throws {
        let store = InMemoryStore()
        let clock = ManualClock()
        let services = try await Self.services(store, clock)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await services.runWordGames() }
            let lobby = try await Self.create(services)
            _ = try await services.lobbies.startGame(lobbyId: lobby.lobbyId, gameId: "word-start-s", by: Self.ann)
            let reply = try await services.lobbies.submitWord(SubmitWordArguments(lobbyId: lobby.lobbyId, word: "swan"), by: Self.ann)
            #expect(try WireJSON.decode(WordVerdictResult.self, from: reply.bytes) == WordVerdictResult(.accept("swan")))
            let deadline = clock.now.adding(seconds: 90)
            let running = try #require(try await Self.stored(store, lobby.lobbyId))
            #expect(running.status == .game && running.round?.deadline == deadline)

            await eventually { clock.sleeperCount == 1 }
            clock.advance(to: deadline.adding(milliseconds: -1))
            try await Task.sleep(for: .milliseconds(50))
            #expect(try await Self.stored(store, lobby.lobbyId)?.status == .game)
            clock.advance(to: deadline)
            try await eventually { try await Self.stored(store, lobby.lobbyId)?.status == .open }
            let ended = try #require(try await Self.stored(store, lobby.lobbyId))
            #expect(ended.lastRound?.players.first?.points == 2 && ended.players.first?.score == 2)
            #expect(clock.sleeperCount == 0)
            group.cancelAll()
        }
    }

    @Test func stoppingCancelsEveryPendingTimer() async throws {
        let clock = ManualClock()
        let services = try await Self.services(InMemoryStore(), clock)
        let timers = Task { await services.runWordGames() }
        for _ in 0..<3 {
            let lobby = try await Self.create(services)
            _ = try await services.lobbies.startGame(lobbyId: lobby.lobbyId, gameId: nil, by: Self.ann)
        }
        await eventually { clock.sleeperCount == 3 }
        timers.cancel()
        await timers.value
        #expect(clock.sleeperCount == 0)
    }

    @Test func restoredRoundsAreReArmedOrEndedAtOnce() async throws {
        let store = InMemoryStore()
        let clock = ManualClock()
        let first = try await Self.services(store, clock)
        let overdue = try await Self.create(first)
        _ = try await first.lobbies.startGame(lobbyId: overdue.lobbyId, gameId: "word-lightning-start-p", by: Self.ann)  // 30 s
        let pending = try await Self.create(first)
        _ = try await first.lobbies.startGame(lobbyId: pending.lobbyId, gameId: "word-start-s", by: Self.ann)  // 90 s
        // `first` never ran its timers: it "crashed". 60 s later a new server opens the same store.
        clock.advance(bySeconds: 60)
        let second = try await Self.services(store, clock)
        #expect(second.lobbyDirectory.count == 2)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await second.runWordGames() }
            try await eventually { try await Self.stored(store, overdue.lobbyId)?.status == .open }
            #expect(try await Self.stored(store, overdue.lobbyId)?.lastRound?.endedAt == clock.now)
            #expect(try await Self.stored(store, pending.lobbyId)?.status == .game)
            await eventually { clock.sleeperCount == 1 }
            clock.advance(bySeconds: 30)
            try await eventually { try await Self.stored(store, pending.lobbyId)?.status == .open }
            group.cancelAll()
        }
    }
}
