import Foundation
import ParlorTestSupport
import Testing
import WebSocketCore

/// Game records against the real parlor-server: whole games played over the wire, each step of the
/// record (replayed by the server through the rules) equal to the view a spectator was sent live at
/// that version; `verify-records` on the data directory, clean and then tampered with; and what a
/// record costs on disk.
@Suite(.serialized) struct GameRecordEndToEndTests {
    /// What a spectator was sent, by version.
    final class LiveViews: @unchecked Sendable {
        let connection: JSONConnection
        let sub: Int
        private(set) var byVersion: [Int: [String: Any]] = [:]

        init(_ connection: JSONConnection, sub: Int) {
            self.connection = connection
            self.sub = sub
        }

        /// Reads the spectator's stream up to `version` (so it never falls behind and skips one).
        func read(through version: Int) async throws {
            while (byVersion.keys.max() ?? 0) < version {
                let event = try await connection.nextEvent(sub: sub)
                guard let data = event["data"] as? [String: Any], let seen = data["version"] as? Int else { continue }
                byVersion[seen] = data
            }
        }
    }

    /// Every step of the game's record, read in pages of `pageSize` over `getGameRecord`.
    private func record(_ code: String, as client: JSONConnection, pageSize: Int) async throws -> (page: [String: Any], steps: [[String: Any]]) {
        var steps: [[String: Any]] = []
        var from = 1
        var first: [String: Any]?
        while true {
            let reply = try await client.call("getGameRecord", ["code": code, "from": from, "limit": pageSize])
            let page = try #require(reply.result, "getGameRecord \(code) from \(from): \(reply)")
            if first == nil { first = page }
            steps += try #require(page["steps"] as? [[String: Any]])
            guard let next = page["nextFrom"] as? Int else { break }
            #expect(next == from + pageSize)
            from = next
        }
        return (try #require(first), steps)
    }

    /// Checks the record of `code` step by step against what the spectator saw live, from version 1 on.
    private func expectRecordMatches(_ code: String, live: LiveViews, client: JSONConnection, finalVersion: Int, actions: Bool) async throws {
        let (page, steps) = try await record(code, as: client, pageSize: 7)
        #expect(page["code"] as? String == code && page["stepCount"] as? Int == finalVersion - 1)
        let initial = try #require(page["initial"] as? [String: Any])
        #expect(initial["version"] as? Int == 1)
        if let seen = live.byVersion[1] {
            #expect(Self.canonical(try #require(initial["view"] as? [String: Any])) == Self.canonical(seen))
        }
        #expect(steps.map { $0["step"] as? Int } == (1..<finalVersion).map { $0 })
        for step in steps {
            let version = try #require(step["version"] as? Int)
            let view = try #require(step["view"] as? [String: Any])
            let seen = try #require(live.byVersion[version], "the spectator saw no version \(version)")
            #expect(Self.canonical(view) == Self.canonical(seen), "step \(step["step"] ?? "?"): the replayed view differs from the live one")
            #expect((step["action"] != nil) == actions)
            #expect(step["at"] is String)
        }
    }

    /// A view as JSON text with sorted keys, so two parses of the same JSON compare equal.
    static func canonical(_ value: [String: Any]) -> String {
        (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// `parlor-server verify-records` on `directory`: its exit status and output.
    private func verifyRecords(_ directory: String) async throws -> (status: Int32, output: String) {
        let process = try ChildProcess("parlor-server", ["verify-records", "--data-dir", directory])
        guard let status = await process.waitForExit(timeout: .seconds(120)), await process.waitForOutput() else {
            await process.stop()
            throw ProcessTestError("verify-records did not finish:\n\(process.standardError)")
        }
        return (status, process.standardOutput + process.standardError)
    }

    /// Runs Python's sqlite3 on the data directory's database (the server stopped).
    private func sqlite(_ directory: String, _ script: String) async throws -> String {
        let program = "import sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\n" + script + "\ndb.commit()\n"
        let process = try ChildProcess(executable: "/usr/bin/env", ["python3", "-c", program, directory + "/parlor.sqlite"], name: "python3")
        guard let status = await process.waitForExit(timeout: .seconds(60)), await process.waitForOutput(), status == 0 else {
            throw ProcessTestError("python3 sqlite3 failed:\n\(process.standardError)")
        }
        return process.standardOutput
    }

    /// The bytes a game's record takes: its rows' payload (`dbstat`, SQLite's own count of what each
    /// row stores) and the number of steps.
    private func recordBytes(_ directory: String, code: String) async throws -> String {
        try await sqlite(directory, """
            rid, head = db.execute("SELECT id, length(id) + length(kind) + length(game_id) + length(code) + length(initial_state) + 8 * 4 + coalesce(length(history_key), 0) FROM game_records WHERE code = ?", (\"\(code)\",)).fetchone()
            steps, stepBytes = db.execute("SELECT count(*), sum(length(record_id) + coalesce(length(actor), 0) + length(action) + coalesce(length(environment), 0) + 8 * 3) FROM game_record_steps WHERE record_id = ?", (rid,)).fetchone()
            initial = db.execute("SELECT length(initial_state) FROM game_records WHERE id = ?", (rid,)).fetchone()[0]
            print(f"{steps} steps, {head + stepBytes} bytes of columns ({head} head of which {initial} initial state, {stepBytes} steps, {stepBytes // max(steps, 1)} per step)")
            """)
    }

    @Test func aTicTacToeGameReplaysAsItWasSeenLiveAndVerifyRecordsFindsATamperedStep() async throws {
        let server = try await ServerProcess.start()
        let code: String = try await server.connect { ann in
            try await server.connect { bo in
                try await server.connect { watcher in
                    let created = try #require(try await ann.call("createTicTacToe", ["playerName": "Ann"]).result)
                    let code = try #require((created["ticTacToe"] as? [String: Any])?["code"] as? String)
                    let sub = try #require(try await watcher.call("observeTicTacToe", ["code": code]).result?["subscription"] as? Int)
                    let live = LiveViews(watcher, sub: sub)
                    try await live.read(through: 1)
                    var version = try #require(try await bo.call("joinTicTacToe", ["code": code, "playerName": "Bo"]).result.flatMap {
                        ($0["ticTacToe"] as? [String: Any])?["version"] as? Int
                    })
                    try await live.read(through: version)
                    // Not finished yet: no record to show.
                    #expect(try await ann.call("getGameRecord", ["code": code]).errorCode == "RECORD_NOT_AVAILABLE")
                    for (index, cell) in [0, 4, 1, 5, 2].enumerated() {
                        let player = index.isMultiple(of: 2) ? ann : bo
                        version = try #require(try await player.call("placeMark", ["code": code, "cell": cell]).result?["version"] as? Int)
                        try await live.read(through: version)
                    }
                    try await expectRecordMatches(code, live: live, client: watcher, finalVersion: version, actions: true)

                    // Paging limits, a code never played, and the same page over HTTP for a signed-in caller.
                    #expect(try await ann.call("getGameRecord", ["code": code, "limit": 0]).errorCode == "INVALID_INPUT")
                    #expect(try await ann.call("getGameRecord", ["code": code, "limit": 201]).errorCode == "INVALID_INPUT")
                    #expect(try await ann.call("getGameRecord", ["code": code, "from": 0]).errorCode == "INVALID_INPUT")
                    #expect(try await ann.call("getGameRecord", ["code": "0000000"]).errorCode == "RECORD_NOT_AVAILABLE")
                    let base = "http://127.0.0.1:\(server.port)/games/\(code)/record"
                    let page = try await curl(["-H", "Authorization: Bearer \(ann.token!)", base + "?from=5&limit=3"])
                    let body = try #require(try JSONSerialization.jsonObject(with: Data(page.body.utf8)) as? [String: Any])
                    #expect(page.status == 200 && (body["steps"] as? [[String: Any]])?.map { $0["step"] as? Int } == [5, 6])
                    #expect(body["initial"] == nil && body["nextFrom"] == nil)
                    #expect(try await curl([base]).status == 401)
                    #expect(try await curl(["-H", "Authorization: Bearer \(ann.token!)", base + "?limit=x"]).status == 400)
                    return code
                }
            }
        }
        await server.stop()

        let clean = try await verifyRecords(server.dataDirectory)
        #expect(clean.status == 0 && clean.output.contains("Replayed 1 records (6 steps): 0 diverge."), "\(clean.output)")

        // Ann's second mark (step 4, on cell 1) moved onto Bo's cell 4: the rules refuse it there.
        _ = try await sqlite(server.dataDirectory, #"db.execute("UPDATE game_record_steps SET action = '{\"place\":{\"cell\":4}}' WHERE step = 4")"#)
        let tampered = try await verifyRecords(server.dataDirectory)
        #expect(tampered.status == 1, "\(tampered.output)")
        #expect(tampered.output.contains("tic-tac-toe \(code)") && tampered.output.contains("diverges at step 4"), "\(tampered.output)")
        try? FileManager.default.removeItem(atPath: server.dataDirectory)
    }

    /// `--no-game-records` (a benchmark aid, hidden from `--help`): games are played as always, and
    /// keep no record — so the benchmark's "off" run writes none.
    @Test func withoutGameRecordsGamesArePlayedAndKeepNone() async throws {
        let server = try await ServerProcess.start(["--no-game-records"])
        try await server.connect { ann in
            try await server.connect { bo in
                let created = try #require(try await ann.call("createTicTacToe", ["playerName": "Ann"]).result)
                let code = try #require((created["ticTacToe"] as? [String: Any])?["code"] as? String)
                #expect(try await bo.call("joinTicTacToe", ["code": code, "playerName": "Bo"]).result != nil)
                for (index, cell) in [0, 4, 1, 5, 2].enumerated() {
                    let reply = try await (index.isMultiple(of: 2) ? ann : bo).call("placeMark", ["code": code, "cell": cell])
                    #expect(reply.result != nil, "\(reply)")
                }
                #expect(try await ann.call("getGameRecord", ["code": code]).errorCode == "RECORD_NOT_AVAILABLE")
            }
        }
        await server.stop()
        let rows = try await sqlite(server.dataDirectory, "print(db.execute('SELECT count(*) FROM game_records').fetchone()[0], db.execute('SELECT count(*) FROM history').fetchone()[0])")
        #expect(rows.trimmingCharacters(in: .whitespacesAndNewlines) == "0 1", "records, history: \(rows)")
        try? FileManager.default.removeItem(atPath: server.dataDirectory)
    }

    @Test func aDartsMatchOf39VisitsReplaysAsItWasSeenLive() async throws {
        let server = try await ServerProcess.start()
        let code: String = try await server.connect { host in
            try await server.connect { watcher in
                let created = try await host.call("createMatch", ["gameType": "501", "outRule": "straight", "playerName": "Host"])
                let code = try #require((created.result?["match"] as? [String: Any])?["id"] as? String)
                let sub = try #require(try await watcher.call("observeMatch", ["code": code]).result?["subscription"] as? Int)
                let live = LiveViews(watcher, sub: sub)
                try await live.read(through: 1)
                let added = try #require(try await host.call("addGuest", ["code": code, "name": "Guest"]).result)
                let guestId = try #require(((added["players"] as? [[String: Any]])?.last)?["id"] as? String)
                var version = try #require(try await host.call("startMatch", ["code": code]).result?["version"] as? Int)
                try await live.read(through: version)
                // 19 visits of 26 each (494), then the host checks out on 7: 39 visits.
                for visit in 0..<39 {
                    let player = visit.isMultiple(of: 2) ? host.userId! : guestId
                    let scored: [String: Any] = visit == 38 ? ["darts": ["S7"]] : ["total": 26]
                    let reply = try await host.call("recordVisit", ["code": code, "playerId": player].merging(scored) { $1 })
                    version = try #require(reply.result?["version"] as? Int, "visit \(visit): \(reply)")
                    try await live.read(through: version)
                }
                try await expectRecordMatches(code, live: live, client: watcher, finalVersion: version, actions: true)

                // The visit list, as Python's csv module reads it: 39 visits in order, the score left
                // after each, the checkout last.
                let export = try await RecordExportReader.read(port: server.port, code: code, format: "csv", token: watcher.token!)
                #expect(export.status == 200 && export.contentType.hasPrefix("text/csv"))
                #expect(export.rows.first == ["set", "leg", "visit", "player", "darts", "total", "score_left", "bust", "checkout"])
                let visits = Array(export.rows.dropFirst())
                #expect(visits.count == 39)
                for (index, row) in visits.enumerated() where row.count == 9 {
                    let thrower = index.isMultiple(of: 2) ? "Host" : "Guest"
                    let left = index == 38 ? 0 : 501 - 26 * (index / 2 + 1)
                    #expect(row[3] == thrower && row[6] == String(left) && row[2] == String(index + 1), "visit \(index + 1): \(row)")
                    #expect(row[8] == (index == 38 ? "yes" : "no") && row[7] == "no")
                }
                #expect(visits.last?[4] == "S7" && visits.last?[5] == "7" && visits.first?[4] == "" && visits.first?[5] == "26")
                // Darts have no map: no GeoJSON.
                let geo = try await RecordExportReader.read(port: server.port, code: code, format: "geojson", token: watcher.token!)
                #expect(geo.status == 404)
                return code
            }
        }
        await server.stop()
        let clean = try await verifyRecords(server.dataDirectory)
        #expect(clean.status == 0 && clean.output.contains("0 diverge."), "\(clean.output)")
        print("Record of a 501 darts match of 39 visits: \(try await recordBytes(server.dataDirectory, code: code))")
        try? FileManager.default.removeItem(atPath: server.dataDirectory)
    }

    @Test func aSixRoundRummyGameOfFourReplaysAsItWasSeenLive() async throws {
        let server = try await ServerProcess.start()
        let code: String = try await server.connect { host in
            try await server.connect { watcher in
                let created = try await host.call("createRoom", ["pointLimit": 350, "pointValue": 10, "playerCount": 4, "playerName": "Host"])
                let code = try #require((created.result?["room"] as? [String: Any])?["id"] as? String)
                let sub = try #require(try await watcher.call("observeRoom", ["code": code]).result?["subscription"] as? Int)
                let live = LiveViews(watcher, sub: sub)
                try await live.read(through: 1)
                var players = [host.userId!]
                for name in ["Ann", "Bo", "Cy"] {
                    let guestId: String = try await server.connect { guest throws -> String in
                        let joined = try await guest.call("joinRoom", ["code": code, "playerName": name])
                        let ready = try await guest.call("setReady", ["roomCode": code, "playerId": guest.userId!, "ready": true])
                        #expect(joined.result != nil && ready.result != nil)
                        return guest.userId!
                    }
                    players.append(guestId)
                }
                var version = try #require(try await host.call("startGame", ["roomCode": code]).result?["version"] as? Int)
                try await live.read(through: version)
                for round in 1...6 {
                    for (seat, player) in players.enumerated() {
                        let reply = try await host.call("submitScore", ["roomCode": code, "playerId": player, "round": round, "score": 10 * seat + round])
                        version = try #require(reply.result?["version"] as? Int, "\(reply)")
                        try await live.read(through: version)
                    }
                    let next = try #require(try await host.call("nextRound", ["roomCode": code]).result)
                    version = try #require(next["version"] as? Int)
                    try await live.read(through: version)
                    #expect((next["isFinished"] as? Bool) == (round == 6))
                }
                try await expectRecordMatches(code, live: live, client: watcher, finalVersion: version, actions: true)

                // The score sheet, as Python's csv module reads it: a column per player, a line per
                // round, the totals last.
                let export = try await RecordExportReader.read(port: server.port, code: code, format: "csv", token: watcher.token!)
                #expect(export.status == 200 && export.contentType.hasPrefix("text/csv"))
                #expect(export.rows.first == ["round", "Host", "Ann", "Bo", "Cy"])
                #expect(export.rows.count == 1 + 6 + 1)
                for round in 1...6 where export.rows.count > round {
                    let scores: [String] = (0..<4).map { (seat: Int) -> String in String(10 * seat + round) }
                    #expect(export.rows[round] == [String(round)] + scores, "round \(round)")
                }
                let totals: [String] = (0..<4).map { (seat: Int) -> String in String(60 * seat + 21) }
                #expect(export.rows.last == ["total"] + totals)
                return code
            }
        }
        await server.stop()
        let clean = try await verifyRecords(server.dataDirectory)
        #expect(clean.status == 0 && clean.output.contains("0 diverge."), "\(clean.output)")
        print("Record of a 6-round rummy game of 4: \(try await recordBytes(server.dataDirectory, code: code))")
        try? FileManager.default.removeItem(atPath: server.dataDirectory)
    }

    @Test func afterKillNineEveryRecordAgreesWithItsGame() async throws {
        let server = try await ServerProcess.start()
        var matches: [(code: String, token: String, host: String, guest: String)] = []
        for _ in 0..<3 {
            matches.append(try await server.connect { host in
                let created = try await host.call("createMatch", ["gameType": "501", "outRule": "straight", "playerName": "Host"])
                let code = try #require((created.result?["match"] as? [String: Any])?["id"] as? String)
                let added = try #require(try await host.call("addGuest", ["code": code, "name": "Guest"]).result)
                let guest = try #require(((added["players"] as? [[String: Any]])?.last)?["id"] as? String)
                #expect(try await host.call("startMatch", ["code": code]).result != nil)
                return (code, host.token!, host.userId!, guest)
            })
        }
        // Visits of 1 as fast as they are acknowledged, killed in the middle; each match's last
        // acknowledged version is kept: what was acknowledged was saved, so it must be in the record.
        var acknowledged: [String: Int] = [:]
        try await withThrowingTaskGroup(of: (String, Int).self) { group in
            for match in matches {
                group.addTask {
                    var last = 0
                    try? await server.connect(token: match.token) { host in
                        for visit in 0..<400 {
                            let player = visit.isMultiple(of: 2) ? match.host : match.guest
                            guard let version = try await host.call("recordVisit", ["code": match.code, "playerId": player, "total": 1]).result?["version"] as? Int
                            else { return }
                            last = version
                        }
                    }
                    return (match.code, last)
                }
            }
            try await Task.sleep(for: .milliseconds(800))
            await server.stop(signal: SIGKILL)
            for try await (code, last) in group { acknowledged[code] = last }
        }
        // The restarted server has every match, and each record's last step is its match's version.
        let restarted = try await ServerProcess.start(dataDirectory: server.dataDirectory)
        var versions: [String: Int] = [:]
        try await restarted.connect { client in
            for match in matches {
                versions[match.code] = try #require(try await client.call("getMatch", ["code": match.code]).result?["version"] as? Int)
            }
        }
        for match in matches {
            let version = try #require(versions[match.code])
            let acked = try #require(acknowledged[match.code])
            #expect(acked > 3 && version >= acked, "\(match.code): acknowledged version \(acked), restarted at \(version)")
        }
        let rows = try await sqlite(server.dataDirectory, """
            for code, version, last in db.execute("SELECT g.code, g.version, (SELECT max(s.step) FROM game_record_steps s WHERE s.record_id = g.record_id) FROM games g WHERE g.kind = 'darts' ORDER BY g.code"):
                print(f"{code} {version} {last}")
            """)
        for line in rows.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            #expect(fields.count == 3 && Int(fields[1]) == versions[fields[0]] && Int(fields[2]) == Int(fields[1]).map { $0 - 1 }, "\(line)")
        }
        #expect(rows.split(separator: "\n").count == 3)

        // The first match played to its end on the restarted server: its record, read over the wire,
        // is every version from the first visit before the kill to the checkout after it.
        let finished = matches[0]
        let finalVersion: Int = try await restarted.connect(token: finished.token) { host in
            while true {
                let view = try #require(try await host.call("getMatch", ["code": finished.code]).result)
                if view["status"] as? String == "finished" { return try #require(view["version"] as? Int) }
                let player = try #require(view["currentPlayerId"] as? String)
                let visit: [String: Any] = (view["checkout"] as? [String]).map { ["darts": $0] } ?? ["total": 60]
                let reply = try await host.call("recordVisit", ["code": finished.code, "playerId": player].merging(visit) { $1 })
                #expect(reply.result != nil, "\(reply)")
            }
        }
        let (stepCount, stepVersions) = try await restarted.connect { client in
            let (page, steps) = try await record(finished.code, as: client, pageSize: 200)
            return (page["stepCount"] as? Int, steps.map { $0["version"] as? Int })
        }
        #expect(stepCount == finalVersion - 1)
        #expect(stepVersions == (2...finalVersion).map { $0 })
        await restarted.stop()
        let verified = try await verifyRecords(server.dataDirectory)
        #expect(verified.status == 0 && verified.output.contains("Replayed 3 records") && verified.output.contains("0 diverge."), "\(verified.output)")
        try? FileManager.default.removeItem(atPath: server.dataDirectory)
    }
}
