import ParlorTestSupport
import Testing
@testable import ParlorServer

/// `listHistory` pages by cursor (finish, kind, code): games that finished in the same millisecond on
/// either side of a page's end are all listed, where `before` (a strict cutoff, kept for older
/// clients) skips the ones after the page's last.
@Suite struct HistoryCursorTests {
    @Test(arguments: [false, true])
    func gamesFinishedInTheSameMillisecondAreNeverSkippedAcrossAPage(onDisk: Bool) async throws {
        try await withTemporaryDirectory { directory in
            let store: any ParlorStore = onDisk ? try SQLiteStore(directory: directory) : InMemoryStore()
            defer { Task { await store.close() } }
            try await play(store)
        }
    }

    private func play(_ store: any ParlorStore) async throws {
        // The clock never moves: every game finishes at the same instant.
        try await withParlor(store: store, clock: ManualClock()) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    var codes: [String] = []
                    for _ in 0..<3 {
                        let created = try #require(try await ann.call("createTicTacToe", ["playerName": "Ann"]).result)
                        let code = try #require((created["ticTacToe"] as? [String: Any])?["code"] as? String)
                        #expect(try await bo.call("joinTicTacToe", ["code": code, "playerName": "Bo"]).result != nil)
                        for (index, cell) in [0, 4, 1, 5, 2].enumerated() {
                            #expect(try await (index.isMultiple(of: 2) ? ann : bo).call("placeMark", ["code": code, "cell": cell]).result != nil)
                        }
                        codes.append(code)
                    }
                    let first = try #require(try await ann.call("listHistory", ["limit": 2]).result)
                    let firstGames = try #require(first["games"] as? [[String: Any]])
                    #expect(Set(firstGames.map { $0["finishedAt"] as? String }).count == 1)
                    let cursor = try #require(first["nextCursor"] as? String)
                    let second = try #require(try await ann.call("listHistory", ["limit": 2, "cursor": cursor]).result)
                    let secondGames = try #require(second["games"] as? [[String: Any]])
                    #expect(second["nextCursor"] == nil && second["nextBefore"] == nil)
                    let listed = (firstGames + secondGames).compactMap { $0["code"] as? String }
                    #expect(listed.count == 3 && Set(listed) == Set(codes), "\(listed) against \(codes)")
                    // In page order: same finish, then by code.
                    #expect(listed == codes.sorted())

                    // `before` still answers, as a strict cutoff: the third game, finished in the same
                    // millisecond, is not on its next page.
                    let before = try #require(first["nextBefore"] as? String)
                    let legacy = try #require(try await ann.call("listHistory", ["limit": 2, "before": before]).result)
                    #expect((legacy["games"] as? [[String: Any]])?.isEmpty == true)

                    #expect(try await ann.call("listHistory", ["cursor": "yesterday"]).errorCode == "INVALID_INPUT")
                    #expect(try await ann.call("listGames", ["cursor": cursor]).errorCode == "INVALID_INPUT")
                }
            }
        }
    }
}
