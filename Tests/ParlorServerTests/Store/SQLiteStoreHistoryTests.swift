import Foundation
import ParlorSQLite
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// Finished games: filed once per game, found by each of their players, paged newest first (SQLite and,
/// where it is installed, PostgreSQL).
@Suite struct SQLiteStoreHistoryTests {
    let alice = StoreFixtures.user(1)
    let bob = StoreFixtures.user(2)
    let carol = StoreFixtures.user(3)

    @Test(arguments: DurableStore.available) func aFinishedGameIsFiledOnceEvenWhenSavedAgain(_ kind: DurableStore) async throws {
        try await kind.withPlace { place in
            let store = try await place.open()
            var finished = try StoreFixtures.finishedRoom(
                StoreFixtures.code(1), players: [alice, bob, carol], finishedAt: StoreFixtures.instant(9_000))
            try await store.saveRoom(try StoreFixtures.startedRoom(StoreFixtures.code(1), players: [alice, bob, carol]))
            #expect(try await store.finishedGames(of: alice, before: nil, limit: 10).isEmpty)

            try await store.saveRoom(finished)
            let atFinish = finished
            // After the finish Carol leaves; the room is saved again, but history keeps the game as it ended.
            _ = try finished.apply(.leave(playerId: carol), by: carol, at: StoreFixtures.instant(9_500))
            try await store.saveRoom(finished)
            try await store.saveRoom(finished)

            #expect(try await store.finishedGames(of: alice, before: nil, limit: 10) == [atFinish])
            #expect(try await store.finishedGames(of: carol, before: nil, limit: 10) == [atFinish])
            #expect(try await store.loadRooms() == [finished])
            #expect(try await place.count("history") == 1)
            #expect(try await place.count("history_players") == 3)

            // Deleting the live room keeps its history.
            try await store.deleteRoom(StoreFixtures.code(1))
            #expect(try await store.finishedGames(of: bob, before: nil, limit: 10) == [atFinish])
            await store.close()
        }
    }

    @Test(arguments: DurableStore.available) func theSameCodeReusedLaterIsAnotherGame(_ kind: DurableStore) async throws {
        try await kind.withPlace { place in
            let store = try await place.open()
            let first = try StoreFixtures.finishedRoom(
                StoreFixtures.code(1), players: [alice, bob], createdAt: StoreFixtures.instant(1_000),
                finishedAt: StoreFixtures.instant(2_000))
            let second = try StoreFixtures.finishedRoom(
                StoreFixtures.code(1), players: [alice, bob], createdAt: StoreFixtures.instant(3_000),
                finishedAt: StoreFixtures.instant(4_000))
            try await store.saveRoom(first)
            try await store.deleteRoom(StoreFixtures.code(1))
            try await store.saveRoom(second)
            #expect(try await store.finishedGames(of: bob, before: nil, limit: 10) == [second, first])
            await store.close()
        }
    }

    @Test(arguments: DurableStore.available) func gamesComeNewestFirstPagedByBeforeAndLimit(_ kind: DurableStore) async throws {
        try await kind.withPlace { place in
            let store = try await place.open()
            // Five games for Alice finishing at 10, 20, 30, 30, 40 seconds; Bob plays only in the odd ones.
            let finishes: [Int64] = [10_000, 20_000, 30_000, 30_000, 40_000]
            var games: [RummyRoom] = []
            for (index, finish) in finishes.enumerated() {
                let players = index.isMultiple(of: 2) ? [alice, bob] : [alice, carol]
                let game = try StoreFixtures.finishedRoom(
                    StoreFixtures.code(10 + index), players: players, finishedAt: StoreFixtures.instant(finish))
                try await store.saveRoom(game)
                games.append(game)
            }

            let all = try await store.finishedGames(of: alice, before: nil, limit: 100)
            // Equal finish times: the one filed later comes first.
            #expect(all.map(\.id) == [games[4], games[3], games[2], games[1], games[0]].map(\.id))

            let firstPage = try await store.finishedGames(of: alice, before: nil, limit: 2)
            #expect(firstPage.map(\.id) == [games[4].id, games[3].id])
            let before30 = try await store.finishedGames(of: alice, before: StoreFixtures.instant(30_000), limit: 2)
            #expect(before30.map(\.id) == [games[1].id, games[0].id], "strictly before: the games at 30 s are excluded")
            #expect(try await store.finishedGames(of: alice, before: StoreFixtures.instant(10_000), limit: 2).isEmpty)

            #expect(try await store.finishedGames(of: alice, before: nil, limit: 0).map(\.id) == [games[4].id],
                    "a limit below 1 is taken as 1")
            #expect(try await store.finishedGames(of: alice, before: nil, limit: -5).count == 1)

            #expect(try await store.finishedGames(of: bob, before: nil, limit: 100).map(\.id)
                    == [games[4].id, games[2].id, games[0].id])
            #expect(try await store.finishedGames(of: carol, before: nil, limit: 100).map(\.id)
                    == [games[3].id, games[1].id])
            #expect(try await store.finishedGames(of: StoreFixtures.user(77), before: nil, limit: 100).isEmpty)
            await store.close()
        }
    }

    @Test(arguments: DurableStore.available) func aHugeLimitIsCappedByTheConfiguredPageSize(_ kind: DurableStore) async throws {
        try await kind.withPlace { place in
            var configuration = StoreFixtures.configuration
            configuration.maxHistoryPageSize = 3
            let store = try await place.open(configuration)
            for index in 0..<5 {
                try await store.saveRoom(try StoreFixtures.finishedRoom(
                    StoreFixtures.code(index), players: [alice, bob], finishedAt: StoreFixtures.instant(Int64(index + 1) * 1_000)))
            }
            #expect(try await store.finishedGames(of: alice, before: nil, limit: Int.max).count == 3)
            await store.close()
        }
    }

    @Test func aPlayersHistoryIsReadThroughTheIndex() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            let plan = try await store.write("Explaining the history query") { db in
                try SQLiteRow.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + SQLiteStore.historyQuery, arguments: ["x", "rummy", 1, 1])
                    .map { try $0.decode(String.self, forColumn: "detail") }
            }
            #expect(plan.contains { $0.contains("history_players_by_user") }, "\(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "no sort step: \(plan)")
            await store.close()
        }
    }
}
