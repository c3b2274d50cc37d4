import Foundation
import ParlorSQLite
import ParlorRules
import ParlorTestSupport
import Testing
import WebSocketCore
@testable import ParlorServer

/// A player's own data: `GET /users/me/export` holds everything Parlor keeps about them, and after
/// `DELETE /users/me` nothing of theirs is left in any table of the store (read table by table from the
/// database's own catalogue, so a table added later is read too), while the people they played with and
/// befriended still read their lists and games — with them as "deleted player". SQLite and PostgreSQL.
@Suite struct PlayerDataTests {
    static let handle = "annexample"
    static let displayName = "Annabel Example"
    static let gameName = "Annie Plays"

    @Test(arguments: DurableStore.available) func exportHoldsEverythingAndDeleteLeavesNothingButOthersGames(_ kind: DurableStore) async throws {
        try await kind.withPlace { place in
            let store = try await place.open()
            var directory: String?
            if case .sqlite(let path) = place { directory = path }
            try await withParlor(store: store, configure: { configuration in
                accountLimits(&configuration)
                if let directory {
                    configuration.persist = true
                    configuration.dataDirectory = directory
                }
            }) { parlor in
                try await Self.exportThenDelete(parlor, place: place, directory: directory)
            }
        }
    }

    static func exportThenDelete(_ parlor: ParlorHarness, place: StorePlace, directory: String?) async throws {
        let ann = try await parlor.member(handle, displayName)
        let bo = try await parlor.member("bo_friend", "Bo Friend")
        let cy = try await parlor.member("cy_asks", "Cy Asks")
        try await parlor.friends(ann, bo)
        #expect(try await parlor.http("POST", "/friends", body: ["addressee_id": ann.id], token: cy.token).0 == 201)
        // An avatar, named on the profile.
        #expect(try await parlor.send("POST", "/storage/v1/object/avatars/\(ann.id)/me.png", bytes: TestImages.png, token: ann.token).status == 200)
        let avatarURL = "https://parlor.example/storage/v1/object/public/avatars/\(ann.id)/me.png"
        #expect(try await parlor.http("PUT", "/users/\(ann.id)", body: ["avatar_url": avatarURL], token: ann.token).0 == 200)
        try await parlor.services.store.saveUserSettings(UserID(ann.id)!, name: "photo-quiz", json: #"{"timerDuration":45}"#)
        // Two matches uploaded: one with a guest (hers alone), one with Bo (his too).
        let alone = Uploads.newID()
        let withBo = Uploads.newID()
        for (id, other, at) in [
            (alone, ["order": 1, "name": "Gil"] as [String: Any], "2026-10-10T20:21:00Z"),
            (withBo, ["player_id": bo.id, "order": 1] as [String: Any], "2026-10-11T20:21:00Z"),
        ] {
            let second: [String: Any] = other["player_id"] != nil ? ["player_id": bo.id] : ["order": 1]
            let body = Uploads.match(
                id: id, players: [["player_id": ann.id, "order": 0], other], winner: ann.id, updatedAt: at,
                startedAt: at, endedAt: at, turns: Uploads.leg(["player_id": ann.id], second))
            let (status, answer) = try await parlor.http("POST", "/matches", body: body, token: ann.token)
            #expect(status == 201, "\(String(describing: answer))")
        }
        // A game of tic-tac-toe against Bo over the WebSocket, won by Ann, and a game she is in the middle of.
        let code = try await parlor.connect(token: ann.token) { annWS in
            try await parlor.connect(token: bo.token) { boWS in
                let created = try #require(try await annWS.call("createTicTacToe", ["playerName": gameName]).result)
                let code = try #require((created["ticTacToe"] as? [String: Any])?["code"] as? String)
                #expect(try await boWS.call("joinTicTacToe", ["code": code, "playerName": "Bo"]).result != nil)
                for (player, cell) in [(annWS, 0), (boWS, 4), (annWS, 1), (boWS, 5), (annWS, 2)] {
                    #expect(try await player.call("placeMark", ["code": code, "cell": cell]).result != nil)
                }
                return code
            }
        }
        let running = try await parlor.connect(token: ann.token) { annWS in
            try #require((try await annWS.call("createTicTacToe", ["playerName": gameName]).result?["ticTacToe"] as? [String: Any])?["code"] as? String)
        }

        // The export.
        let export = try await parlor.send("GET", "/users/me/export", token: ann.token)
        #expect(export.status == 200 && export.headers["content-type"] == "application/json")
        #expect(export.headers["content-disposition"] == "attachment; filename=\"parlor-export-\(ann.id).json\"")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(export.bytes)) as? [String: Any])
        #expect(document["format"] as? String == "parlor-account-export" && document["userId"] as? String == ann.id)
        let profile = try #require(document["profile"] as? [String: Any])
        #expect(profile["handle"] as? String == handle && profile["display_name"] as? String == displayName)
        let friends = try #require(document["friends"] as? [[String: Any]])
        let byStatus = Dictionary(friends.map { ($0["status"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        #expect(friends.count == 2)
        #expect((byStatus["accepted"]?["otherUser"] as? [String: Any])?["displayName"] as? String == "Bo Friend")
        #expect(byStatus["accepted"]?["direction"] as? String == "sent")
        #expect((byStatus["pending"]?["otherUser"] as? [String: Any])?["userId"] as? String == cy.id)
        #expect(byStatus["pending"]?["direction"] as? String == "received")
        let settings = try #require(document["settings"] as? [[String: Any]])
        #expect(settings.first?["name"] as? String == "photo-quiz" && (settings.first?["value"] as? [String: Any])?["timerDuration"] as? Int == 45)
        let history = try #require(document["history"] as? [[String: Any]])
        let played = history.filter { $0["kind"] as? String == "tic-tac-toe" }
        let playedText = String(describing: played)
        #expect(played.count == 1 && playedText.contains(gameName))
        let uploads = try #require(document["uploads"] as? [[String: Any]])
        #expect(Set(uploads.compactMap { $0["id"] as? String }) == [alone, withBo])
        #expect(history.count >= 1)
        let records = try #require(document["gameRecords"] as? [[String: Any]])
        #expect(records.contains { $0["code"] as? String == code } && records.contains { $0["code"] as? String == running })
        #expect((document["liveGames"] as? [[String: Any]])?.contains { $0["code"] as? String == running } == true)
        let files = try #require(document["files"] as? [[String: Any]])
        #expect(files.count == 1 && files.first?["name"] as? String == "me.png" && files.first?["mediaType"] as? String == "image/png")
        #expect(Data(base64Encoded: files.first?["base64"] as? String ?? "").map(Array.init) == TestImages.strippedPNG)

        // Deleting asks for a confirmation, and waits for the games she is still playing.
        let unconfirmed = try await parlor.http("DELETE", "/users/me", token: ann.token)
        #expect(unconfirmed.0 == 400 && errorCode(unconfirmed.1) == "INVALID_INPUT")
        let playing = try await parlor.http("DELETE", "/users/me", body: ["confirm": "DELETE"], token: ann.token)
        #expect(playing.0 == 409 && errorCode(playing.1) == "LEAVE_GAMES_FIRST")
        let refusal = String(describing: playing.1)
        #expect(refusal.contains(running))
        #expect(try await parlor.http("GET", "/users/\(ann.id)", token: bo.token).0 == 200)
        let leaveError = try await parlor.connect(token: ann.token) { annWS in
            try await annWS.call("leaveTicTacToe", ["code": running]).errorCode
        }
        #expect(leaveError == nil)

        // Deleted, with an open connection of hers closed.
        let (deletedStatus, friendshipsDeleted, closeCode) = try await parlor.connect(token: ann.token) { annWS in
            let deleted = try await parlor.http("DELETE", "/users/me?confirm=DELETE", token: ann.token)
            let status = await annWS.webSocket.closeStatus
            return (deleted.0, (deleted.1 as? [String: Any])?["friendships"] as? Int, status)
        }
        #expect(deletedStatus == 200)
        #expect(friendshipsDeleted == 2)
        #expect(closeCode.code == .policyViolation && closeCode.reason == PlayerData.closeReason)
        let after = try await parlor.send("GET", "/users/me/export", token: ann.token)
        let afterCode = errorCode(try JSONSerialization.jsonObject(with: Data(after.bytes)))
        #expect(after.status == 401 && afterCode == "ACCOUNT_DELETED")
        let helloCode = try await parlor.connect(signIn: false) { ws in try await ws.call("hello", ["token": ann.token]).errorCode }
        #expect(helloCode == "ACCOUNT_DELETED")
        #expect(try await parlor.http("GET", "/users/\(ann.id)", token: bo.token).0 == 404)
        #expect(try await parlor.send("GET", "/storage/v1/object/public/avatars/\(ann.id)/me.png").status == 404)

        // Her friends' lists no longer name her; Bo's games still read, with her as "deleted player".
        for friend in [bo, cy] {
            let (status, list) = try await parlor.http("GET", "/friends", token: friend.token)
            let text = String(describing: list)
            #expect(status == 200 && !text.contains(ann.id))
        }
        try await parlor.connect(token: bo.token) { boWS in
            let games = try #require(try await boWS.call("listHistory").result?["games"] as? [[String: Any]])
            let game = try #require(games.first { $0["code"] as? String == code })
            let players = try #require(game["players"] as? [[String: Any]])
            #expect(Set(players.compactMap { $0["name"] as? String }) == ["Bo", AccountErasure.deletedName])
            #expect(game["result"] as? String == "lost" && !players.contains { $0["userId"] as? String == ann.id })
            let record = try await boWS.call("getGameRecord", ["code": code])
            #expect(record.result != nil, "\(record)")
            let recordText = String(describing: record)
            #expect(!recordText.contains(ann.id) && !recordText.contains(gameName))
        }
        let boMatches = try await parlor.history(of: bo)
        #expect(boMatches.map { $0["id"] as? String } == [withBo])
        let matchesText = String(describing: boMatches)
        #expect(!matchesText.contains(ann.id) && !matchesText.contains(displayName))

        // Nothing of hers in any table, nor in the data directory.
        let needles = [ann.id, handle, displayName, gameName, avatarURL]
        let found = try await Self.rowsNaming(needles, in: place)
        #expect(found.isEmpty, "left behind: \(found)")
        if let directory {
            #expect(!FileManager.default.fileExists(atPath: "\(directory)/avatars/\(ann.id)"))
        }
        // The games' records, rewritten without her, still replay to the games as stored.
        let verified = try await GameRecordVerification.verify(store: parlor.services.store, games: parlor.services.games)
        #expect(verified.checked >= 1 && verified.divergences.isEmpty, "\(verified.divergences)")
        // Her friends and what they did are still there.
        #expect(try await Self.rowsNaming([bo.id, cy.id], in: place).contains { $0.hasPrefix("profiles") })
    }

    /// "table: needle" for every table of the store (as its catalogue lists them) holding a row in which
    /// any needle appears, in any column.
    static func rowsNaming(_ needles: [String], in place: StorePlace) async throws -> [String] {
        switch place {
        case .sqlite(let directory):
            return try SQLiteFile.read(directory + "/parlor.sqlite") { db in
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                #expect(tables.count >= 14, "\(tables)")
                var found: [String] = []
                for table in tables {
                    for row in try SQLiteRow.fetchAll(db, sql: "SELECT * FROM \"\(table)\"") {
                        let text = row.values.map { value -> String in
                            switch value {
                            case .text(let string): return string
                            case .blob(let data): return String(decoding: data, as: UTF8.self)
                            default: return ""
                            }
                        }.joined(separator: "\u{1}")
                        for needle in needles where text.contains(needle) { found.append("\(table): \(needle)") }
                    }
                }
                return found
            }
        #if PostgreSQL
        case .postgres(let server, let database):
            let tables = try await server.psql(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
                database: database
            ).split(separator: "\n").map(String.init)
            #expect(tables.count >= 14, "\(tables)")
            var found: [String] = []
            for table in tables {
                for needle in needles {
                    let literal = needle.replacingOccurrences(of: "'", with: "''")
                    let count = try await server.psql(
                        "SELECT count(*) FROM \"\(table)\" AS r WHERE strpos(r::text, '\(literal)') > 0", database: database)
                    if (Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 0 { found.append("\(table): \(needle)") }
                }
            }
            return found
        #endif
        }
    }
}
