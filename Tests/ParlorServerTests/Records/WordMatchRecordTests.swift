import Foundation
import GRDB
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// A five-round word match over the wire (the rounds end on the server's timers, on a manual clock),
/// then its record: every step, replayed by the server, shows the view the lobby's subscribers were
/// sent at that version — and no step shows the words themselves (a word match's moves are secret
/// until the round's results, and per-viewer records come later).
@Suite struct WordMatchRecordTests {
    @Test func aFiveRoundMatchReplaysAsItWasSeenLive() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory)
            let clock = ManualClock()
            try await withParlor(store: store, clock: clock, configure: LobbyFixture.configure) { parlor in
                try await parlor.connect { ann in
                    try await parlor.connect { bo in
                        let created = try #require(try await ann.call("createLobby", ["user": LobbyFixture.user("Ann"), "rounds": 5]).result)
                        let lobbyId = try #require(created["lobbyId"] as? String)
                        let code = try #require(created["lobbyCode"] as? String)
                        _ = try await bo.call("joinLobby", ["lobbyCode": code, "user": LobbyFixture.user("Bo")])
                        let sub = try await LobbyFixture.observe(bo, lobbyId)
                        var live: [Int: [String: Any]] = [:]
                        /// Reads Bo's stream until a `lobby` view satisfies `done`; returns its version.
                        func read(until done: ([String: Any]) -> Bool) async throws -> Int {
                            while true {
                                let event = try await bo.nextEvent(sub: sub)
                                guard event["event"] as? String == "lobby", let data = event["data"] as? [String: Any],
                                      let seen = data["version"] as? Int else { continue }
                                live[seen] = data
                                if done(data) { return seen }
                            }
                        }
                        let words = [("swan", "salt"), ("sun", "sea"), ("sand", "snow"), ("star", "stone"), ("silk", "sapphire")]
                        var version = 0
                        for (round, (first, second)) in words.enumerated() {
                            let started = try await ann.call("startGame", ["lobbyId": lobbyId, "gameId": "word-start-s"])
                            #expect(started["error"] == nil, "round \(round + 1): \(started)")
                            _ = try await LobbyFixture.submit(ann, lobbyId, first)
                            _ = try await LobbyFixture.submit(bo, lobbyId, second)
                            _ = try await LobbyFixture.submit(bo, lobbyId, "bread")
                            await eventually { clock.sleeperCount >= 1 }
                            clock.advance(bySeconds: 90)
                            await parlor.services.timers.settled()
                            version = try await read { $0.lastRoundNumber == round + 1 }
                        }
                        #expect(live[version]?["status"] as? String == "FINISHED")

                        // Every step of the record, in pages of 6, against what Bo's stream showed.
                        var steps: [[String: Any]] = []
                        var from: Int? = 1
                        while let next = from {
                            let page = try #require(try await ann.call("getGameRecord", ["code": code, "from": next, "limit": 6]).result)
                            steps += try #require(page["steps"] as? [[String: Any]])
                            from = page["nextFrom"] as? Int
                        }
                        #expect(steps.count == version - 1)
                        for step in steps {
                            let stepVersion = try #require(step["version"] as? Int)
                            guard let seen = live[stepVersion] else { continue }  // Bo joined before observing.
                            #expect(NSDictionary(dictionary: try #require(step["view"] as? [String: Any])).isEqual(to: seen),
                                    "step \(step["step"] ?? "?")")
                            #expect(step["action"] == nil)
                        }
                        #expect(live.keys.min() == 2 && steps.filter { live[$0["version"] as? Int ?? 0] != nil }.count == version - 1)
                        // The round ends were the clock's.
                        #expect(steps.filter { $0["actor"] == nil }.count == 5)

                        let report = try await GameRecordVerification.verify(store: store, games: parlor.services.games)
                        #expect(report.checked == 1 && report.divergences.isEmpty, "\(report.divergences)")
                    }
                }
            }
            print("Record of a 5-round word match of 2: \(try await RecordBytes.measure(directory))")
            await store.close()
        }
    }
}

/// What records take in a SQLite data directory: the bytes of their columns, per record.
enum RecordBytes {
    static func measure(_ directory: String) async throws -> String {
        let queue = try DatabaseQueue(path: directory + "/parlor.sqlite")
        defer { try? queue.close() }
        return try await queue.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT r.kind, length(r.id) + length(r.kind) + length(r.game_id) + length(r.code) + length(r.initial_state) + 32
                    + coalesce(length(r.history_key), 0) AS head, length(r.initial_state) AS initial,
                    (SELECT count(*) FROM game_record_steps s WHERE s.record_id = r.id) AS steps,
                    (SELECT coalesce(sum(length(s.record_id) + coalesce(length(s.actor), 0) + length(s.action) + 24), 0)
                        FROM game_record_steps s WHERE s.record_id = r.id) AS step_bytes
                FROM game_records r ORDER BY r.created_at
                """)
            return rows.map { row in
                let head: Int = row["head"], steps: Int = row["steps"], stepBytes: Int = row["step_bytes"], initial: Int = row["initial"]
                return "\(row["kind"] as String): \(steps) steps, \(head + stepBytes) bytes (head \(head) of which initial state \(initial); steps \(stepBytes), \(stepBytes / max(steps, 1)) per step)"
            }.joined(separator: "; ")
        }
    }
}
