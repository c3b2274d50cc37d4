import Foundation
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// A ten-photo quiz over the wire (on a manual clock), then its record: every step, replayed by the
/// server, shows the view a spectator was sent live at that version — the answers only where the quiz
/// revealed them — and each player's record shows their own moves alone (another's guess stays the
/// quiz's to reveal, in its views).
@Suite struct QuizRecordTests {
    @Test func aTenPhotoQuizReplaysAsItWasSeenLive() async throws {
        let clock = ManualClock()
        let specs = [QuizWire.paris, QuizWire.sydney, QuizWire.london, QuizWire.kyoto, QuizWire.newYork]
        let jpegs = try await TestPhotos.make(specs)
        try await withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory)
            try await withParlor(store: store, clock: clock, configure: QuizWire.configure) { parlor in
                try await parlor.connect { ann in
                    try await parlor.connect { bo in
                        try await parlor.connect(signIn: false) { spectator in
                            let code = try await QuizWire.seat(ann, [bo], settings: ["revealSpeed": "fast", "timerDuration": 20, "sessionLength": "10"])
                            var uploaders: [String: String] = [:]
                            for index in 0..<10 {
                                let uploader = index < 5 ? ann : bo
                                let response = try await QuizWire.upload(parlor.port, code, jpegs[index % 5], as: uploader)
                                #expect(response.status == 201)
                                uploaders[try #require(response.json?["photoId"] as? String)] = uploader.userId
                            }
                            let reply = try await spectator.call("observeQuiz", ["code": code])
                            let sub = try #require(reply.result?["subscription"] as? Int)
                            var live: [Int: [String: Any]] = [:]
                            func read(through version: Int) async throws {
                                while (live.keys.max() ?? 0) < version {
                                    let event = try await spectator.nextEvent(sub: sub)
                                    guard let data = event["data"] as? [String: Any], let seen = data["version"] as? Int else { continue }
                                    live[seen] = data
                                }
                            }
                            var view = try #require(try await ann.call("startQuiz", ["code": code]).result)
                            var version = try #require(view["version"] as? Int)
                            try await read(through: version)
                            for photo in 0..<10 {
                                let current = try #require(view["currentPhoto"] as? [String: Any])
                                let guesser = uploaders[current["photoId"] as? String ?? ""] == ann.userId ? bo : ann
                                // The one who may guess guesses: everyone has, the photo is revealed.
                                view = try #require(try await guesser.call("submitGuess", ["code": code, "latitude": 45.0 + Double(photo), "longitude": 5.0]).result)
                                #expect(view["phase"] as? String == "revealed")
                                view = try #require(try await ann.call("nextPhoto", ["code": code]).result)
                                version = try #require(view["version"] as? Int)
                                try await read(through: version)
                            }
                            #expect(view["phase"] as? String == "complete")

                            var steps: [[String: Any]] = []
                            var from: Int? = 1
                            while let next = from {
                                let reply = try await ann.call("getGameRecord", ["code": code, "from": next, "limit": 10])
                                let page = try #require(reply.result, "\(reply)")
                                steps += try #require(page["steps"] as? [[String: Any]])
                                from = page["nextFrom"] as? Int
                            }
                            #expect(steps.count == version - 1)
                            var compared = 0
                            for step in steps {
                                // Ann's own moves (her photos, her guesses, the host's moves), never Bo's nor the clock's.
                                #expect((step["action"] != nil) == (step["actor"] as? String == ann.userId), "step \(step["step"] ?? "?")")
                                #expect(step["privateView"] == nil)
                                guard let seen = live[try #require(step["version"] as? Int)] else { continue }
                                #expect(NSDictionary(dictionary: try #require(step["view"] as? [String: Any])).isEqual(to: seen), "step \(step["step"] ?? "?")")
                                compared += 1
                            }
                            #expect(compared == live.count && compared >= 20)
                            let annGuesses = steps.filter { ($0["action"] as? [String: Any])?["guess"] != nil }
                            #expect(annGuesses.count == 5 && annGuesses.allSatisfy { $0["actor"] as? String == ann.userId })
                            // Bo's record: his own five guesses, and none of Ann's moves.
                            var bosSteps: [[String: Any]] = []
                            var bosFrom: Int? = 1
                            while let next = bosFrom {
                                let page = try #require(try await bo.call("getGameRecord", ["code": code, "from": next, "limit": 50]).result)
                                bosSteps += try #require(page["steps"] as? [[String: Any]])
                                bosFrom = page["nextFrom"] as? Int
                            }
                            #expect(bosSteps.count == steps.count)
                            #expect(bosSteps.allSatisfy { ($0["action"] != nil) == ($0["actor"] as? String == bo.userId) })
                            #expect(bosSteps.filter { ($0["action"] as? [String: Any])?["guess"] != nil }.count == 5)

                            // The guesses as Python's csv and json read the exports: one per photo, where it was
                            // guessed, how far off and the points, the answer beside it; and as GeoJSON Points.
                            let csv = try await RecordExportReader.read(port: parlor.port, code: code, format: "csv", token: ann.token!)
                            #expect(csv.status == 200 && csv.contentType.hasPrefix("text/csv"))
                            #expect(csv.rows.first == [
                                "round", "photo", "player", "latitude", "longitude", "distance_km", "points", "answer_latitude", "answer_longitude", "answer_place",
                            ])
                            let guesses = Array(csv.rows.dropFirst())
                            #expect(guesses.count == 10)
                            for (index, row) in guesses.enumerated() where row.count == 10 {
                                #expect(row[0] == String(index + 1) && Double(row[3]) == 45.0 + Double(index) && Double(row[4]) == 5.0, "\(row)")
                                #expect(uploaders[row[1]] != nil && (Double(row[5]) ?? -1) > 0 && Int(row[6]) != nil && Double(row[7]) != nil)
                            }
                            let geo = try await RecordExportReader.read(port: parlor.port, code: code, format: "geojson", token: bo.token!)
                            #expect(geo.status == 200 && geo.contentType == "application/geo+json")
                            #expect(geo.document["type"] as? String == "FeatureCollection")
                            let features = geo.document["features"] as? [[String: Any]] ?? []
                            let kinds = features.map { ($0["properties"] as? [String: Any])?["kind"] as? String ?? "" }
                            #expect(kinds.filter { $0 == "answer" }.count == 10 && kinds.filter { $0 == "guess" }.count == 10)
                            let guessPoints = features.filter { ($0["properties"] as? [String: Any])?["kind"] as? String == "guess" }
                                .compactMap { ($0["geometry"] as? [String: Any])?["coordinates"] as? [Double] }
                            #expect(guessPoints == (0..<10).map { [5.0, 45.0 + Double($0)] })
                            // Someone not signed in gets nothing.
                            #expect(try await RecordExportReader.read(port: parlor.port, code: code, format: "csv", token: "x").status == 401)

                            let report = try await GameRecordVerification.verify(store: store, games: parlor.services.games)
                            #expect(report.checked == 1 && report.divergences.isEmpty, "\(report.divergences)")

                            // The photos' previews gone after the quiz: the record still replays to the same
                            // quiz, since each photo's start kept the previews it read; without those reads
                            // the replay reaches another quiz (one without previews).
                            let hosts: [GameHost<PhotoQuizGame>] = parlor.services.games.compactMap { game in (game as? PhotoQuizHosting)?.host }
                            let host = try #require(hosts.first)
                            let head = try #require(try await store.backend.records.finishedGameRecord(code: code))
                            let recorded = try await store.backend.records.gameRecordSteps(id: head.id, from: 1, limit: 500)
                            #expect(recorded.filter { $0.environment != nil }.count == 10, "one read per photo started")
                            let gone = GameRecordReplay(game: host.game, environment: PhotoQuizEnvironment(previews: NoPreviews()))
                            for end in [recorded.count, try #require(recorded.firstIndex { $0.environment != nil }) + 1] {
                                let now = try host.replayer.replay(initialState: head.initialState, steps: recorded, to: end)
                                let after = try gone.replay(initialState: head.initialState, steps: recorded, to: end)
                                let (replayedNow, replayedAfter) = (try PhotoQuizGame.storedJSON(now), try PhotoQuizGame.storedJSON(after))
                                #expect(JSONValue.sameJSON(replayedAfter, replayedNow), "to step \(end)")
                            }
                            // The first photo's start: with the previews read live, and without.
                            let firstStart = try #require(recorded.firstIndex { $0.environment != nil }) + 1
                            let withoutReads = recorded.map { step in var step = step; step.environment = nil; return step }
                            #expect(try gone.replay(initialState: head.initialState, steps: recorded, to: firstStart).round?.previews != nil)
                            #expect(try gone.replay(initialState: head.initialState, steps: withoutReads, to: firstStart).round?.previews == nil)
                        }
                    }
                }
            }
            print("Record of a 10-photo quiz of 2: \(try await RecordBytes.measure(directory))")
            await store.close()
        }
    }
}

/// A photo store that has lost every photo.
private struct NoPreviews: TilePreviewSource {
    func previews(ofPhoto id: String) -> TilePreviews? { nil }
}
