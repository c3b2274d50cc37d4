import ParlorRules
import Testing
@testable import ParlorServer

/// What the nodes of a cluster tell each other, read back as written: a committed version with the game
/// itself when it fits PostgreSQL's 8,000 bytes (and without it when not), claims, releases and
/// deletions, deleted accounts; and payloads another release might send are refused, not misread.
struct GameChangeTests {
    @Test func aVersionCarriesTheGameWhenItFits() throws {
        let body = GameChange.Body(schedule: #"[{"key":"round-end","due":12}]"#, state: #"{"id":"K7Q2ZD","names":["Zoë 🎯","Bo"]}"#)
        let change = GameChange(node: "node2", kind: "rummy", id: "K7Q2ZD", version: 41, committedAt: 1_700_000_000_123_456, body: body)
        let read = try #require(GameChange(payload: change.payload))
        #expect(read == change)
        #expect(read.carriesGame)
    }

    @Test func aGameTooBigForAPayloadIsAnnouncedWithoutIt() throws {
        let body = GameChange.Body(schedule: "[]", state: "{\"words\":\"" + String(repeating: "é", count: 4_000) + "\"}")
        let change = GameChange(node: "node1", kind: "word-lobby", id: "L1", version: 7, committedAt: 1, body: body)
        #expect(change.payload.utf8.count <= GameChange.maxPayloadBytes)
        let read = try #require(GameChange(payload: change.payload))
        #expect(read.body == nil && read.version == 7 && read.id == "L1")
    }

    @Test func aDeletionAndAVersionWithoutAGameReadBack() throws {
        let deleted = GameChange(node: "n", kind: "darts", id: "QX7KM", version: GameChange.deleted, committedAt: 5)
        #expect(GameChange(payload: deleted.payload) == deleted)
    }

    @Test(arguments: ["", "node1 x 1 rummy ABC", "node1 3 1 rummy", "node1 3 1 rummy ABC\n", "node1 3 1 rummy ABC\n99 []{}", "node1 3 1 rummy ABC\nx []{}"])
    func payloadsThisReleaseDoesNotWriteAreRefused(payload: String) {
        #expect(GameChange(payload: payload) == nil)
    }

    @Test func homeChangesReadBack() {
        for change in [
            HomeChange.claimed(node: "node3", kind: "rummy", id: "K7Q2ZD"), .released(node: "node1"),
            .deleted(node: "node2", kind: "darts", id: "QX7KM"),
            .accountDeleted(node: "node1", user: UserID("0f8fad5b-d9cb-469f-a165-70867728950e")!),
        ] {
            #expect(HomeChange(payload: change.payload) == change)
        }
        #expect(HomeChange(payload: "claim node3 rummy") == nil)
        #expect(HomeChange(payload: "node1 3 1 rummy ABC") == nil, "a version is not a home change")
        #expect(HomeChange(payload: "account-deleted node1 not-a-user") == nil)
    }

    /// Every node and every release must put a game in the same bucket, and spread games over them.
    @Test func bucketsAreStableAndSpread() {
        #expect(ClusterChannel.bucket(kind: "rummy", id: "K7Q2ZD") == ClusterChannel.bucket(kind: "rummy", id: "K7Q2ZD"))
        #expect(ClusterChannel.bucket(kind: "rummy", id: "ABCDEF") == 33, "FNV-1a (32-bit) of rummy/ABCDEF mod 64, fixed for good")
        let used = Set((0..<1000).map { ClusterChannel.bucket(kind: "rummy", id: "ROOM\($0)") })
        #expect(used.count > ClusterChannel.watchBuckets * 3 / 4)
        #expect(used.allSatisfy { (0..<ClusterChannel.watchBuckets).contains($0) })
    }

    #if PostgreSQL
    /// What a batch announces: each save on its bucket (and on its node's channel when another node
    /// serves it), a save that lost its race nowhere, a deletion to every node.
    @Test func aBatchAnnouncesEachGameWhereItsWatchersListen() {
        func save(_ id: String, servedBy: String?) -> SQLiteWrite {
            .saveGame(.init(kind: "rummy", noun: "room", id: id, code: id, version: 2, state: "{}", schedule: "[]", replacing: .version(1), servedBy: servedBy))
        }
        let writes = [save("A", servedBy: nil), save("B", servedBy: "node2"), save("C", servedBy: nil),
                      .deleteGame(kind: "rummy", noun: "room", id: "D", version: 4)]
        let announced = PostgresWriter.announcements(of: writes, except: [.game(kind: "rummy", id: "C")], by: "node1", at: 9)
        let channels = announced.map(\.channel)
        #expect(channels == [
            ClusterChannel.watch(ClusterChannel.bucket(kind: "rummy", id: "A")),
            ClusterChannel.watch(ClusterChannel.bucket(kind: "rummy", id: "B")), ClusterChannel.node("node2"), ClusterChannel.homes,
        ])
        #expect(GameChange(payload: announced[0].payload)?.body == GameChange.Body(schedule: "[]", state: "{}"))
        #expect(HomeChange(payload: announced[3].payload) == .deleted(node: "node1", kind: "rummy", id: "D"))

        // Only on the buckets another node listens to; the serving node and every node still hear theirs.
        let watchedA: Set = [ClusterChannel.bucket(kind: "rummy", id: "A")]
        let sparse = PostgresWriter.announcements(of: writes, except: [], by: "node1", at: 9, watched: watchedA).map(\.channel)
        #expect(sparse == [
            ClusterChannel.watch(ClusterChannel.bucket(kind: "rummy", id: "A")), ClusterChannel.node("node2"), ClusterChannel.homes,
        ])
        #expect(PostgresWriter.announcements(of: [save("A", servedBy: nil)], except: [], by: "node1", at: 9, watched: []).isEmpty)
    }
    #endif
}
