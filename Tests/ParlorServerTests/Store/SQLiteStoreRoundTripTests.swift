import Foundation
import ParlorSQLite
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// What goes in comes back out, also after the store is closed and opened again (SQLite and, where it
/// is installed, PostgreSQL).
@Suite struct SQLiteStoreRoundTripTests {
    @Test(arguments: DurableStore.available) func theLastSavedVersionOfEachRoomComesBackAfterReopening(_ kind: DurableStore) async throws {
        try await kind.withPlace { place in
            let players = (1...4).map(StoreFixtures.user)
            let open = try StoreFixtures.room(StoreFixtures.code(1), players: players)
            let started = try StoreFixtures.startedRoom(StoreFixtures.code(1), players: players)
            let other = try StoreFixtures.room(StoreFixtures.code(2), players: [StoreFixtures.user(9)])

            let store = try await place.open()
            try await store.saveRoom(open)
            try await store.saveRoom(other)
            try await store.saveRoom(started)
            #expect(try await store.loadRooms() == [started, other])
            await store.close()

            let reopened = try await place.open()
            #expect(try await reopened.loadRooms() == [started, other])
            await reopened.close()
        }
    }

    @Test(arguments: DurableStore.available) func deletingARoomOrLobbyRemovesOnlyThatOne(_ kind: DurableStore) async throws {
        try await kind.withPlace { place in
            let store = try await place.open()
            let kept = try StoreFixtures.room(StoreFixtures.code(1), players: [StoreFixtures.user(1)])
            try await store.saveRoom(kept)
            try await store.saveRoom(try StoreFixtures.room(StoreFixtures.code(2), players: [StoreFixtures.user(2)]))
            try await store.deleteRoom(StoreFixtures.code(2))
            try await store.deleteRoom(StoreFixtures.code(3))  // never existed: nothing to do, no error

            let lobby = try StoreFixtures.lobby(id: "lobby-a", code: "ABCD")
            try await store.saveLobby(lobby)
            try await store.saveLobby(try StoreFixtures.lobby(id: "lobby-b", code: "EFGH"))
            try await store.deleteLobby(id: "lobby-b")
            await store.close()

            let reopened = try await place.open()
            #expect(try await reopened.loadRooms() == [kept])
            #expect(try await reopened.loadLobbies() == [lobby])
            await reopened.close()
        }
    }

    @Test(arguments: DurableStore.available) func lobbiesRoundTripWithTheLastVersionWinning(_ kind: DurableStore) async throws {
        try await kind.withPlace { place in
            let store = try await place.open()
            var lobby = try StoreFixtures.lobby(id: "lobby-1", code: "WXYZ", players: 2)
            try await store.saveLobby(lobby)
            _ = try lobby.join(StoreFixtures.user(950), profile: LobbyProfile(username: "Late", colorNumber: 3, emojiNumber: 4))
            try await store.saveLobby(lobby)
            await store.close()

            let reopened = try await place.open()
            let loaded = try await reopened.loadLobbies()
            #expect(loaded == [lobby])
            #expect(loaded.first?.players.count == 3)
            await reopened.close()
        }
    }

    @Test(arguments: DurableStore.available) func theCatalogWithTheHighestVersionWins(_ kind: DurableStore) async throws {
        try await kind.withPlace { place in
            let store = try await place.open()
            #expect(try await store.loadCatalog() == nil)
            try await store.saveCatalog(StoreFixtures.catalog(version: 1))
            try await store.saveCatalog(StoreFixtures.catalog(version: 3))
            try await store.saveCatalog(StoreFixtures.catalog(version: 2))
            #expect(try await store.loadCatalog() == StoreFixtures.catalog(version: 3))
            var revised = StoreFixtures.catalog(version: 3)
            revised.gameModes[0].name = "Renamed"
            try await store.saveCatalog(revised)
            await store.close()

            let reopened = try await place.open()
            #expect(try await reopened.loadCatalog() == revised)
            await reopened.close()
        }
    }

    @Test(arguments: DurableStore.available) func theSecretIsCreatedOnceAndAgreedOnByConcurrentFirstCalls(_ kind: DurableStore) async throws {
        try await kind.withPlace { place in
            let store = try await place.open()
            let secrets = try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for _ in 0..<16 { group.addTask { try await store.serverSecret() } }
                return try await group.reduce(into: Set<[UInt8]>()) { $0.insert($1) }
            }
            #expect(secrets.count == 1)
            let secret = try #require(secrets.first)
            #expect(secret.count == 32)
            #expect(Set(secret).count > 8, "32 random bytes are not all alike")
            await store.close()

            let reopened = try await place.open()
            #expect(try await reopened.serverSecret() == secret)
            await reopened.close()
        }
    }

    @Test func aRowThatDoesNotDecodeIsReportedByItsKeyNotSkipped() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            try await store.saveRoom(try StoreFixtures.room(StoreFixtures.code(1), players: [StoreFixtures.user(1)]))
            try await store.saveLobby(try StoreFixtures.lobby(id: "lobby-1", code: "ABCD"))
            try await store.saveCatalog(StoreFixtures.catalog(version: 4))
            _ = try await store.write("Damaging rows") { db in
                try db.execute(sql: "UPDATE games SET state = '{\"id\": \"R00001\"}' WHERE kind = 'rummy'")
                try db.execute(sql: "UPDATE games SET state = 'not json' WHERE kind = 'word-lobby'")
                try db.execute(sql: "UPDATE catalogs SET payload = json_set(payload, '$.updatedAt', 'yesterday')")
            }

            let room = await storeError { _ = try await store.loadRooms() }
            #expect(room?.kind == .corrupt)
            #expect(room?.reason.contains("room R00001") == true)
            #expect(room?.reason.contains(store.databasePath) == true)

            let lobby = await storeError { _ = try await store.loadLobbies() }
            #expect(lobby?.kind == .corrupt)
            #expect(lobby?.reason.contains("lobby lobby-1") == true)

            let catalog = await storeError { _ = try await store.loadCatalog() }
            #expect(catalog?.kind == .corrupt)
            #expect(catalog?.reason.contains("catalog version 4") == true)
            #expect(catalog?.reason.contains("updatedAt") == true)
            await store.close()
        }
    }

    @Test(arguments: DurableStore.available) func afterCloseReadsAndWritesFailAsUnavailable(_ kind: DurableStore) async throws {
        try await kind.withPlace { place in
            let store = try await place.open()
            await store.close()
            await store.close()  // twice is harmless

            let write = await storeError {
                try await store.saveRoom(try StoreFixtures.room(StoreFixtures.code(1), players: [StoreFixtures.user(1)]))
            }
            #expect(write?.kind == .unavailable)
            #expect(write?.reason.contains("closed") == true)
            let read = await storeError { _ = try await store.loadRooms() }
            #expect(read?.kind == .unavailable)
        }
    }
}
