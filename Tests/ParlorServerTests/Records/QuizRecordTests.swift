import Foundation
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// A ten-photo quiz over the wire (on a manual clock), then its record: every step, replayed by the
/// server, shows the view a spectator was sent live at that version — the answers only where the quiz
/// revealed them — and no step shows the moves themselves (guesses stay the quiz's to reveal).
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
                                #expect(step["action"] == nil)
                                guard let seen = live[try #require(step["version"] as? Int)] else { continue }
                                #expect(NSDictionary(dictionary: try #require(step["view"] as? [String: Any])).isEqual(to: seen), "step \(step["step"] ?? "?")")
                                compared += 1
                            }
                            #expect(compared == live.count && compared >= 20)

                            let report = try await GameRecordVerification.verify(store: store, games: parlor.services.games)
                            #expect(report.checked == 1 && report.divergences.isEmpty, "\(report.divergences)")
                        }
                    }
                }
            }
            print("Record of a 10-photo quiz of 2: \(try await RecordBytes.measure(directory))")
            await store.close()
        }
    }
}
