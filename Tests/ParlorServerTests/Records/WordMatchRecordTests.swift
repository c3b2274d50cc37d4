import Foundation
import ParlorSQLite
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// A five-round word match over the wire (the rounds end on the server's timers, on a manual clock),
/// then its record as each viewer saw the match: every step, replayed by the server, shows the public
/// view the lobby's subscribers were sent at that version; a player also gets their own private view
/// at each step, the very `lobbyPrivate` frame they were sent, and their own moves, never another's;
/// someone who did not play gets the public views alone. The raw frames of the records are scanned:
/// the other player's words appear only from the step whose round results revealed them.
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
                        let annSub = try await LobbyFixture.observe(ann, lobbyId)
                        var live: [Int: [String: Any]] = [:]
                        /// Ann's own words as she was sent them, by version.
                        var annPrivate: [Int: [String: Any]] = [:]
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
                        /// Reads Ann's stream through `version`, keeping her private frames.
                        func readAnn(through version: Int) async throws {
                            while (annPrivate.keys.max() ?? 0) < version {
                                let event = try await ann.nextEvent(sub: annSub)
                                guard event["event"] as? String == "lobbyPrivate", let data = event["data"] as? [String: Any],
                                      let seen = data["version"] as? Int else { continue }
                                annPrivate[seen] = data
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
                            try await readAnn(through: version)
                        }
                        #expect(live[version]?["status"] as? String == "FINISHED")

                        /// Every step of the record as `viewer` asks for it, in pages of 6, and the raw reply frames.
                        func record(as viewer: JSONConnection) async throws -> (initial: [String: Any], steps: [[String: Any]], frames: [String]) {
                            viewer.recordsFrames = true
                            defer { viewer.recordsFrames = false }
                            let before = viewer.frames.count
                            var steps: [[String: Any]] = []
                            var initial: [String: Any]?
                            var from: Int? = 1
                            while let next = from {
                                let page = try #require(try await viewer.call("getGameRecord", ["code": code, "from": next, "limit": 6]).result)
                                initial = initial ?? (page["initial"] as? [String: Any])
                                steps += try #require(page["steps"] as? [[String: Any]])
                                from = page["nextFrom"] as? Int
                            }
                            return (try #require(initial), steps, Array(viewer.frames[before...]))
                        }

                        let asAnn = try await record(as: ann)
                        #expect(asAnn.steps.count == version - 1)
                        for step in asAnn.steps {
                            let stepVersion = try #require(step["version"] as? Int)
                            guard let seen = live[stepVersion] else { continue }  // Bo joined before observing.
                            #expect(NSDictionary(dictionary: try #require(step["view"] as? [String: Any])).isEqual(to: seen),
                                    "step \(step["step"] ?? "?")")
                        }
                        #expect(live.keys.min() == 2 && asAnn.steps.filter { live[$0["version"] as? Int ?? 0] != nil }.count == version - 1)
                        // The round ends were the clock's.
                        #expect(asAnn.steps.filter { $0["actor"] == nil }.count == 5)

                        // Ann's own words, step by step, as she was sent them live.
                        var comparedPrivate = 0
                        for step in asAnn.steps {
                            let stepVersion = try #require(step["version"] as? Int)
                            let mine = try #require(step["privateView"] as? [String: Any], "step \(step["step"] ?? "?") has no private view for Ann")
                            #expect(mine["userId"] as? String == ann.userId)
                            guard let seen = annPrivate[stepVersion] else { continue }  // Observed from version 3 on.
                            #expect(NSDictionary(dictionary: mine).isEqual(to: seen), "step \(step["step"] ?? "?"): Ann's private view")
                            comparedPrivate += 1
                        }
                        #expect(comparedPrivate >= version - 3, "\(comparedPrivate) of \(version - 1) private views compared")
                        // Her own moves, never Bo's, nor the clock's.
                        for step in asAnn.steps {
                            #expect((step["action"] != nil) == (step["actor"] as? String == ann.userId), "step \(step["step"] ?? "?")")
                        }
                        let annWords = asAnn.steps.compactMap { ($0["action"] as? [String: Any])?["submitWord"] as? [String: Any] }
                        #expect(annWords.count == 5)

                        // Bo's words reach Ann's record only with the round results that revealed them: each
                        // raw step frame is scanned, and a word of Bo's round r may appear only in a step
                        // whose public view shows round r (or later) as finished.
                        var revealedThrough = 0
                        for step in asAnn.steps {
                            let view = try #require(step["view"] as? [String: Any])
                            revealedThrough = max(revealedThrough, view.lastRoundNumber ?? 0)
                            let text = String(decoding: try JSONSerialization.data(withJSONObject: step), as: UTF8.self)
                            for (round, (_, second)) in words.enumerated() where round + 1 > revealedThrough {
                                #expect(!text.contains("\"\(second)\""), "step \(step["step"] ?? "?") shows Bo's \(second) before round \(round + 1)'s results")
                            }
                            if revealedThrough == 0 { #expect(!text.contains("\"bread\""), "step \(step["step"] ?? "?") shows Bo's bread early") }
                        }
                        let rawAnn = asAnn.frames.joined()
                        #expect(rawAnn.contains("\"salt\"") && rawAnn.contains("\"bread\""), "the results do show Bo's words")

                        // Someone who did not play: the public views alone, no moves.
                        try await parlor.connect { cy in
                            let asCy = try await record(as: cy)
                            #expect(asCy.steps.count == version - 1 && asCy.initial["privateView"] == nil)
                            for (mine, theirs) in zip(asCy.steps, asAnn.steps) {
                                #expect(mine["privateView"] == nil && mine["action"] == nil, "step \(mine["step"] ?? "?")")
                                #expect(NSDictionary(dictionary: try #require(mine["view"] as? [String: Any]))
                                    .isEqual(to: try #require(theirs["view"] as? [String: Any])))
                            }
                        }

                        let report = try await GameRecordVerification.verify(store: store, games: parlor.services.games)
                        #expect(report.checked == 1 && report.divergences.isEmpty, "\(report.divergences)")

                        // The catalog and the word list change after the match (here: both emptied): the
                        // record still replays to the same lobby, since each step kept what it read. The
                        // same steps without their reads do not (so the reads are what the replay used).
                        let host = try #require(parlor.services.games.compactMap { $0 as? GameHost<WordLobbyGame> }.first)
                        let head = try #require(try await store.backend.records.finishedGameRecord(code: code))
                        let recorded = try await store.backend.records.gameRecordSteps(id: head.id, from: 1, limit: 500)
                        #expect(recorded.filter { $0.environment != nil }.count == 5 + 15, "5 round starts, 15 words")
                        let emptied = GameRecordReplay(game: host.game, environment: WordLobbyEnvironment(
                            catalog: Catalog(version: 99, updatedAt: Instant(millisecondsSinceEpoch: 0), gameModes: []), wordList: SetWordList([])))
                        let now = try host.replayer.replay(initialState: head.initialState, steps: recorded, to: recorded.count)
                        let after = try emptied.replay(initialState: head.initialState, steps: recorded, to: recorded.count)
                        let (replayedNow, replayedAfter) = (try WordLobbyGame.storedJSON(now), try WordLobbyGame.storedJSON(after))
                        #expect(after.version == version)
                        #expect(JSONValue.sameJSON(replayedAfter, replayedNow))
                        let withoutReads = recorded.map { step in var step = step; step.environment = nil; return step }
                        #expect(throws: GameRecordDivergence.self) {
                            try emptied.replay(initialState: head.initialState, steps: withoutReads, to: withoutReads.count)
                        }
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
        return try SQLiteFile.read(directory + "/parlor.sqlite") { db in
            let rows = try SQLiteRow.fetchAll(db, sql: """
                SELECT r.kind, length(r.id) + length(r.kind) + length(r.game_id) + length(r.code) + length(r.initial_state) + 32
                    + coalesce(length(r.history_key), 0) AS head, length(r.initial_state) AS initial,
                    (SELECT count(*) FROM game_record_steps s WHERE s.record_id = r.id) AS steps,
                    (SELECT coalesce(sum(length(s.record_id) + coalesce(length(s.actor), 0) + length(s.action) + coalesce(length(s.environment), 0) + 24), 0)
                        FROM game_record_steps s WHERE s.record_id = r.id) AS step_bytes
                FROM game_records r ORDER BY r.created_at
                """)
            return try rows.map { row in
                let head = try row.decode(Int.self, forColumn: "head"), steps = try row.decode(Int.self, forColumn: "steps")
                let stepBytes = try row.decode(Int.self, forColumn: "step_bytes"), initial = try row.decode(Int.self, forColumn: "initial")
                return "\(try row.decode(String.self, forColumn: "kind")): \(steps) steps, \(head + stepBytes) bytes (head \(head) of which initial state \(initial); steps \(stepBytes), \(stepBytes / max(steps, 1)) per step)"
            }.joined(separator: "; ")
        }
    }
}
