import Foundation
import ParlorSQLite
import ParlorRules
import Testing
@testable import ParlorServer

/// Profiles, friendships, uploaded games and lifetimes, in SQLite, PostgreSQL and memory alike: the
/// stores answer every call the same way.
@Suite struct StoreAccountsTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, memory, postgres
        var testDescription: String { rawValue }

        /// PostgreSQL only where it is installed (see `DurableStore`).
        static var available: [Kind] { allCases.filter { $0 != .postgres || DurableStore.available.contains(.postgres) } }
    }

    static func withStore(_ kind: Kind, _ body: (any ParlorStore) async throws -> Void) async throws {
        switch kind {
        case .memory:
            try await body(InMemoryStore())
        case .sqlite, .postgres:
            try await (kind == .sqlite ? DurableStore.sqlite : .postgres).withPlace { place in
                let store = try await place.open()
                try await body(store)
                await store.close()
            }
        }
    }

    static let (ann, bo, cy, di) = (StoreFixtures.user(1), StoreFixtures.user(2), StoreFixtures.user(3), StoreFixtures.user(4))
    static let darts = DartsGame.kind

    static func profile(_ user: UserID, _ handle: String, _ name: String, nickname: String? = nil, at: Int64 = 1_000) -> ProfileRecord {
        ProfileRecord(
            user: user, handle: handle, displayName: name, nickname: nickname, avatarURL: nil,
            searchName: ProfileText.fold(name), searchNickname: ProfileText.fold(nickname ?? ""),
            createdAt: StoreFixtures.instant(at), updatedAt: StoreFixtures.instant(at))
    }

    @Test(arguments: Kind.available) func profilesAreOnePerUserWithUniqueHandles(_ kind: Kind) async throws {
        try await Self.withStore(kind) { (store: any ParlorStore) async throws in
            #expect(try await store.saveProfile(Self.profile(Self.ann, "ann", "Ann"), creating: true) == .saved)
            #expect(try await store.saveProfile(Self.profile(Self.ann, "ann2", "Ann"), creating: true) == .profileExists)
            #expect(try await store.saveProfile(Self.profile(Self.bo, "ann", "Bo"), creating: true) == .handleTaken)
            #expect(try await store.saveProfile(Self.profile(Self.bo, "bo", "Bo"), creating: false) == .profileMissing)
            #expect(try await store.saveProfile(Self.profile(Self.bo, "bo", "Bo"), creating: true) == .saved)
            var renamed = Self.profile(Self.ann, "annie", "Ann Smith", nickname: "Annie", at: 2_000)
            renamed.avatarURL = "/storage/v1/object/public/avatars/a/b.png"
            #expect(try await store.saveProfile(renamed, creating: false) == .saved)
            #expect(try await store.saveProfile(Self.profile(Self.bo, "annie", "Bo"), creating: false) == .handleTaken)
            let found = try await store.profiles([Self.ann, Self.bo, Self.cy]).sorted { $0.user < $1.user }
            #expect(found.map(\.handle) == ["annie", "bo"])
            #expect(found[0].avatarURL == renamed.avatarURL && found[0].nickname == "Annie" && found[0].displayName == "Ann Smith")
            #expect(found[0].createdAt == StoreFixtures.instant(1_000) && found[0].updatedAt == StoreFixtures.instant(2_000))
            #expect(try await store.profiles([]).isEmpty)
        }
    }

    @Test(arguments: Kind.available) func searchPutsTheExactHandleFirstThenPrefixesThenTheRest(_ kind: Kind) async throws {
        try await Self.withStore(kind) { (store: any ParlorStore) async throws in
            for profile in [
                Self.profile(Self.ann, "zoe_x", "Chloé Zoe"),  // "zoe" begins a word of the name
                Self.profile(Self.bo, "zoe", "Bo"),  // the exact handle
                Self.profile(Self.cy, "cy", "Cy", nickname: "Mazoé"),  // inside the nickname
                Self.profile(Self.di, "di", "Di"),  // no match
            ] {
                #expect(try await store.saveProfile(profile, creating: true) == .saved)
            }
            #expect(try await store.searchProfiles("zoe", limit: 20).map(\.handle) == ["zoe", "zoe_x", "cy"])
            #expect(try await store.searchProfiles("zoe", limit: 2).map(\.handle) == ["zoe", "zoe_x"])
            // `_` is a character like any other, not a wildcard.
            #expect(try await store.searchProfiles("e_", limit: 20).map(\.handle) == ["zoe_x"])
            #expect(try await store.searchProfiles("%", limit: 20).isEmpty)
        }
    }

    @Test(arguments: Kind.available) func oneFriendshipPerPairInEitherDirection(_ kind: Kind) async throws {
        try await Self.withStore(kind) { (store: any ParlorStore) async throws in
            let request = FriendshipRecord(
                id: "f-1", requester: Self.ann, addressee: Self.bo, status: .pending, createdAt: StoreFixtures.instant(1_000),
                updatedAt: StoreFixtures.instant(1_000))
            #expect(try await store.createFriendship(request))
            var reverse = request
            (reverse.id, reverse.requester, reverse.addressee) = ("f-2", Self.bo, Self.ann)
            #expect(try await !store.createFriendship(reverse))
            var other = request
            (other.id, other.addressee) = ("f-3", Self.cy)
            #expect(try await store.createFriendship(other))

            var accepted = request
            accepted.status = .accepted
            accepted.updatedAt = StoreFixtures.instant(2_000)
            #expect(try await store.updateFriendship(accepted))
            #expect(try await store.friendships(of: Self.ann) == [accepted, other])
            #expect(try await store.friendships(of: Self.bo) == [accepted])
            #expect(try await store.deleteFriendship(id: "f-1"))
            #expect(try await !store.deleteFriendship(id: "f-1"))
            #expect(try await !store.updateFriendship(accepted))
            #expect(try await store.friendships(of: Self.bo).isEmpty)
            // Once deleted, the pair may start again.
            #expect(try await store.createFriendship(reverse))
        }
    }

    static func upload(_ id: String, updatedAt: Int64, finishedAt: Int64, players: [UserID], state: String = "{}") -> UploadedGame {
        UploadedGame(
            kind: darts, id: id, uploader: players[0], updatedAt: StoreFixtures.instant(updatedAt),
            finishedAt: StoreFixtures.instant(finishedAt), players: players,
            tallies: Dictionary(uniqueKeysWithValues: players.map { ($0, ["won": $0 == players[0] ? 1 : 0]) }), state: state)
    }

    @Test(arguments: Kind.available) func anUploadReplacesOnlyTheVersionTheCallerSaw(_ kind: Kind) async throws {
        try await Self.withStore(kind) { (store: any ParlorStore) async throws in
            let first = Self.upload("m-1", updatedAt: 10, finishedAt: 5_000, players: [Self.ann, Self.bo], state: #"{"v":1}"#)
            #expect(try await store.saveUploadedGame(first, replacing: nil))
            #expect(try await !store.saveUploadedGame(first, replacing: nil), "a second first upload loses")
            #expect(try await store.uploadedGame(Self.darts, id: "m-1") == first)

            let second = Self.upload("m-1", updatedAt: 20, finishedAt: 6_000, players: [Self.bo, Self.cy], state: #"{"v":2}"#)
            #expect(try await !store.saveUploadedGame(second, replacing: StoreFixtures.instant(11)))
            #expect(try await store.saveUploadedGame(second, replacing: StoreFixtures.instant(10)))
            var stored = second
            stored.players = [Self.bo, Self.cy]
            #expect(try await store.uploadedGame(Self.darts, id: "m-1") == stored)
            // Ann is no longer in it; Cy now is.
            #expect(try await store.uploadedGames(Self.darts, of: Self.ann, before: nil, limit: 10).isEmpty)
            #expect(try await store.uploadedGames(Self.darts, of: Self.cy, before: nil, limit: 10).map(\.id) == ["m-1"])
            #expect(try await store.uploadedGame(RummyGame.kind, id: "m-1") == nil)
        }
    }

    @Test(arguments: Kind.available) func aPlayersUploadsPageNewestFirst(_ kind: Kind) async throws {
        try await Self.withStore(kind) { (store: any ParlorStore) async throws in
            for (number, finished) in [(1, 3_000), (2, 1_000), (3, 2_000), (4, 4_000)] {
                #expect(try await store.saveUploadedGame(
                    Self.upload("m-\(number)", updatedAt: 1, finishedAt: Int64(finished), players: [Self.ann]), replacing: nil))
            }
            #expect(try await store.uploadedGames(Self.darts, of: Self.ann, before: nil, limit: 2).map(\.id) == ["m-4", "m-1"])
            #expect(try await store.uploadedGames(Self.darts, of: Self.ann, before: StoreFixtures.instant(3_000), limit: 5).map(\.id)
                == ["m-3", "m-2"])
        }
    }

    @Test(arguments: Kind.available) func aLifetimeAddsFiledAndUploadedGamesTallies(_ kind: Kind) async throws {
        try await Self.withStore(kind) { (store: any ParlorStore) async throws in
            try await store.saveGame(StoredGame(
                kind: Self.darts, id: "live-1", code: "ACDEF", version: 3, state: .json("{}"), schedule: StoredGame.emptySchedule,
                archive: GameArchive(
                    key: "live-1", players: [Self.ann, Self.bo], finishedAt: StoreFixtures.instant(7_000),
                    tallies: [Self.ann: ["won": 1, "points": 301], Self.bo: ["won": 0, "points": 200]])))
            #expect(try await store.saveUploadedGame(Self.upload("m-1", updatedAt: 1, finishedAt: 1_000, players: [Self.ann, Self.bo]), replacing: nil))
            let tallies = try await store.lifetime(Self.darts, of: Self.ann).compactMap { entry -> PlayerTally? in
                if case .tally(let tally) = entry { tally } else { nil }
            }
            #expect(tallies.count == 2)
            #expect(tallies.contains(["won": 1, "points": 301]) && tallies.contains(["won": 1]))
            #expect(try await store.lifetime(Self.darts, of: Self.cy).isEmpty)
            #expect(try await store.lifetime(RummyGame.kind, of: Self.ann).isEmpty)
        }
    }

    /// A finished game filed before tallies existed (schema v2) is handed back whole, for its game to
    /// count.
    @Test func historyFiledBeforeTalliesComesBackUntallied() async throws {
        try await SQLiteMigrationTests.withV1Directory { directory, expected in
            let store = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            let entries = try await store.lifetime(RummyGame.kind, of: expected.ann.userId)
            #expect(entries.count == 2)
            for entry in entries {
                guard case .untallied(let state) = entry else {
                    Issue.record("a v1 game came back with a tally")
                    continue
                }
                let room = try StoredGameState<RummyGame>.state(of: state, what: "finished game", location: "history")
                #expect(room.isFinished)
            }
            await store.close()
        }
    }
}
