import Foundation
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// A whole photo quiz through the real server on a manual clock: three players upload five real
/// photos, and play them to the standings while a spectator watches. Every photo is revealed a different
/// way; tiles are refused before they appear and served after; no frame anyone received before a
/// photo's reveal holds its answer; every guess scores what was worked out by hand.
@Suite struct QuizSessionTests {
    /// Each photo's answer as the reveal names it, and two guesses at it with their haversine distances
    /// and points, worked out by hand (Python, R = 6371.0088 km, round(5000·e^(−d/1492.7))).
    struct Expected {
        var city: String
        var country: String
        var displayDate: String
        var latitude: String
        /// (latitude, longitude, distance km, points), one per guesser in seat order.
        var guesses: [(Double, Double, Double, Int)]
    }

    static let expected: [String: Expected] = [
        "paris": Expected(city: "Paris", country: "France", displayDate: "Jun 14, 2024", latitude: "48.8566",
                          guesses: [(51.5074, -0.1278, 343.5565, 3972), (48.8566, 2.3522, 0, 5000)]),
        "sydney": Expected(city: "Sydney", country: "Australia", displayDate: "Jan 26, 2023", latitude: "-33.8688",
                           guesses: [(-37.8136, 144.9631, 713.4285, 3100), (-33.87, 151.21, 0.1483, 5000)]),
        "london": Expected(city: "London", country: "United Kingdom", displayDate: "Date unknown", latitude: "51.5074",
                           guesses: [(53.4808, -2.2426, 261.9832, 4195), (48.8566, 2.3522, 343.5565, 3972)]),
        "kyoto": Expected(city: "Kyoto", country: "Japan", displayDate: "Apr 2, 2019", latitude: "35.0116",
                          guesses: [(34.6937, 135.5023, 42.8696, 4858), (35.6762, 139.6503, 359.7646, 3929)]),
        "newyork": Expected(city: "New York City", country: "United States", displayDate: "Dec 31, 2022", latitude: "40.7128",
                            guesses: [(42.3601, -71.0589, 306.1089, 4073), (38.9072, -77.0369, 327.5832, 4015)]),
    ]

    /// How each of the five photos is revealed, in play order.
    enum Ending { case everyoneGuessed, timer, host }
    static let endings: [Ending] = [.everyoneGuessed, .timer, .host, .everyoneGuessed, .host]

    @Test func threePlayersPlayFivePhotosToTheStandings() async throws {
        let clock = ManualClock()
        let jpegs = try await TestPhotos.make([QuizWire.paris, QuizWire.sydney, QuizWire.london, QuizWire.kyoto, QuizWire.newYork])
        try await withParlor(clock: clock, configure: QuizWire.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    try await parlor.connect { cy in
                        try await parlor.connect(signIn: false) { spectator in
                            try await Self.play(parlor, clock, jpegs, ann, bo, cy, spectator)
                        }
                    }
                }
            }
        }
    }

    static func play(
        _ parlor: ParlorHarness, _ clock: ManualClock, _ jpegs: [[UInt8]], _ ann: JSONConnection, _ bo: JSONConnection,
        _ cy: JSONConnection, _ spectator: JSONConnection
    ) async throws {
        let port = parlor.port
        let players = [ann, bo, cy]
        for connection in players + [spectator] { connection.recordsFrames = true }
        let code = try await QuizWire.seat(ann, [bo, cy], settings: ["revealSpeed": "fast", "timerDuration": 20, "sessionLength": "5"])
        #expect(code.count == 5)

        // Ann uploads Paris and Kyoto, Bo Sydney and New York, Cy London.
        let uploads: [(String, JSONConnection, [UInt8])] = [
            ("paris", ann, jpegs[0]), ("sydney", bo, jpegs[1]), ("london", cy, jpegs[2]), ("kyoto", ann, jpegs[3]), ("newyork", bo, jpegs[4]),
        ]
        var names: [String: String] = [:]  // photo id → name
        var uploaders: [String: String] = [:]  // photo id → user id
        for (name, uploader, jpeg) in uploads {
            let response = try await QuizWire.upload(port, code, jpeg, as: uploader, album: name == "kyoto" ? "Japan trip" : nil)
            #expect(response.status == 201, "\(name): \(String(decoding: response.body, as: UTF8.self))")
            let result = try #require(response.json)
            // The photo's id, its album and its date: never where it was taken.
            #expect(Set(result.keys) == ["photoId", "album", "takenAt"])
            #expect(result["album"] as? String == (name == "kyoto" ? "Japan trip" : "Photos"))
            let photoId = try #require(result["photoId"] as? String)
            names[photoId] = name
            uploaders[photoId] = uploader.userId
        }
        #expect(names.count == 5)
        let sub = try await QuizWire.observe(spectator, code)

        let started = try #require(try await ann.call("startQuiz", ["code": code]).result)
        #expect(started["phase"] as? String == "revealing" && started["photoIndex"] as? Int == 0 && started["photoCount"] as? Int == 5)
        var view = started
        var scores: [String: Int] = [:]
        var roundFrom = [spectator, ann, bo, cy].map(\.frames.count)
        for round in 0..<5 {
            let current = try #require(view["currentPhoto"] as? [String: Any])
            let photoId = try #require(current["photoId"] as? String)
            let name = try #require(names[photoId])
            let answer = try #require(Self.expected[name])
            let uploader = try #require(uploaders[photoId])
            #expect(current["uploadedBy"] as? String == uploader)
            #expect(view["answer"] is NSNull && view["guesses"] is NSNull && view["photoIndex"] as? Int == round)
            let roundStart = clock.now
            #expect(current["startedAt"] as? String == roundStart.iso8601)
            #expect(current["guessDeadline"] as? String == roundStart.adding(seconds: 20).iso8601)
            #expect(current["revealEndsAt"] as? String == roundStart.adding(seconds: 5).iso8601)
            let first = try #require(current["revealedTiles"] as? [Int])
            #expect(first.count == 1 && (current["previews"] as? [String: String])?.keys.sorted() == [String(first[0])])

            // Tiles: the one out is served, without EXIF; the others, and the whole photo, are not.
            let shown = try await QuizWire.tile(port, code, photo: photoId, first[0])
            #expect(shown.status == 200 && shown.headers["content-type"] == "image/jpeg")
            #expect(shown.body.starts(with: [0xFF, 0xD8, 0xFF]) && shown.body.firstRange(of: Array("Exif".utf8)) == nil)
            let hiddenTile = try #require((0..<36).first { !first.contains($0) })
            let hidden = try await QuizWire.tile(port, code, photo: photoId, hiddenTile)
            #expect(hidden.status == 403 && hidden.errorCode == "TILE_HIDDEN")
            let whole = try await QuizWire.http(port, "GET", "/quizzes/\(code)/photos/\(photoId)")
            #expect(whole.status == 403 && whole.errorCode == "PHOTO_HIDDEN")

            // One second later 8 tiles are out (one every 5000/35 ms).
            clock.advance(bySeconds: 1)
            await parlor.services.timers.settled()
            let second = try #require(try await spectator.call("getQuiz", ["code": code]).result)
            let tiles = try #require((second["currentPhoto"] as? [String: Any])?["revealedTiles"] as? [Int])
            #expect(tiles.count == 8 && Array(tiles.prefix(1)) == first)
            #expect(((second["currentPhoto"] as? [String: Any])?["previews"] as? [String: String])?.count == 8)
            for tile in tiles.suffix(2) { #expect(try await QuizWire.tile(port, code, photo: photoId, tile).status == 200) }

            // The uploader may not guess; the others do.
            let uploaderConnection = try #require(players.first { $0.userId == uploader })
            let own = try await uploaderConnection.call("submitGuess", ["code": code, "latitude": 0, "longitude": 0])
            #expect(own.errorCode == "OWN_PHOTO" && own.errorStatus == "permission-denied")
            let guessers = players.filter { $0.userId != uploader }
            let ending = Self.endings[round]
            let guessing = ending == .everyoneGuessed ? guessers : [guessers[0]]

            // Everything received so far, by everyone, is from before the reveal.
            _ = try await QuizWire.view(spectator, sub: sub, atLeast: second["version"] as? Int ?? 0)
            var before = [spectator, ann, bo, cy].map(\.frames.count)
            for (guesser, guess) in zip(guessing, answer.guesses) {
                before = [spectator, ann, bo, cy].map(\.frames.count)
                let reply = try await guesser.call("submitGuess", ["code": code, "latitude": guess.0, "longitude": guess.1])
                view = try #require(reply.result, "\(reply)")
            }
            switch ending {
            case .everyoneGuessed:
                #expect(view["phase"] as? String == "revealed")
            case .timer:
                #expect(view["phase"] as? String == "revealing")
                before = [spectator, ann, bo, cy].map(\.frames.count)
                clock.advance(to: roundStart.adding(milliseconds: 19_999))
                await parlor.services.timers.settled()
                #expect(try await spectator.call("getQuiz", ["code": code]).result?["phase"] as? String == "revealing")
                before = [spectator, ann, bo, cy].map(\.frames.count)
                clock.advance(to: roundStart.adding(seconds: 20))
                await parlor.services.timers.settled()
                view = try #require(try await spectator.call("getQuiz", ["code": code]).result)
            case .host:
                before = [spectator, ann, bo, cy].map(\.frames.count)
                #expect(try await bo.call("reveal", ["code": code]).errorCode == "NOT_HOST")
                view = try #require(try await ann.call("reveal", ["code": code]).result)
            }
            #expect(view["phase"] as? String == "revealed")

            // The answer, and each guess at its hand-computed distance and points.
            let revealed = try #require(view["answer"] as? [String: Any])
            #expect(revealed["city"] as? String == answer.city && revealed["country"] as? String == answer.country)
            #expect(revealed["displayDate"] as? String == answer.displayDate && revealed["isOffline"] as? Bool == false)
            let coordinate = try #require(revealed["coordinate"] as? [String: Double])
            #expect(String(coordinate["latitude"] ?? 0).hasPrefix(answer.latitude))
            let guesses = try #require(view["guesses"] as? [[String: Any]])
            #expect(guesses.count == guessing.count)
            for (guesser, guess) in zip(guessing, answer.guesses) {
                let scored = try #require(guesses.first { $0["playerId"] as? String == guesser.userId })
                #expect(abs((scored["distanceKm"] as? Double ?? -1) - guess.2) < 0.01, "\(name): \(scored)")
                #expect(scored["points"] as? Int == guess.3, "\(name): \(scored)")
                scores[guesser.userId ?? "", default: 0] += guess.3
            }
            let points = (view["guesses"] as? [[String: Any]] ?? []).compactMap { $0["points"] as? Int }
            #expect(points == points.sorted(by: >))
            let listed = try #require(view["players"] as? [[String: Any]])
            for player in listed {
                #expect(player["score"] as? Int == scores[player["id"] as? String ?? "", default: 0])
            }
            // Now the whole photo and every tile may be seen.
            let photo = try await QuizWire.http(port, "GET", "/quizzes/\(code)/photos/\(photoId)")
            #expect(photo.status == 200 && photo.headers["content-type"] == "image/jpeg" && photo.body.firstRange(of: Array("Exif".utf8)) == nil)
            #expect(try await QuizWire.tile(port, code, photo: photoId, hiddenTile).status == 200)
            #expect(((view["currentPhoto"] as? [String: Any])?["revealedTiles"] as? [Int])?.count == 36)

            // No frame anyone received in this round before the reveal holds the answer, or anyone's
            // guess; none at all before it names the place.
            _ = try await QuizWire.view(spectator, sub: sub, atLeast: view["version"] as? Int ?? 0)
            for (connection, (from, count)) in zip([spectator, ann, bo, cy], zip(roundFrom, before)) {
                for (index, frame) in connection.frames.prefix(count).enumerated() {
                    let named = frame.contains("\"city\":\"\(answer.city)\"")
                    #expect(!named, "\(name): frame \(index) before the reveal names \(answer.city)")
                    guard index >= from else { continue }
                    for secret in [answer.latitude, "\"city\"", "\"country\"", "\"displayDate\"", "\"coordinate\"", "\"distanceKm\""] {
                        let leaked = frame.contains(secret)
                        #expect(!leaked, "\(name): frame \(index) before the reveal holds \(secret)")
                    }
                }
            }
            let announced = spectator.frames.dropFirst(before[0]).contains { $0.contains("\"city\":\"\(answer.city)\"") }
            #expect(announced)

            if round < 4 {
                #expect(try await bo.call("nextPhoto", ["code": code]).errorCode == "NOT_HOST")
                roundFrom = [spectator, ann, bo, cy].map(\.frames.count)
                view = try #require(try await ann.call("nextPhoto", ["code": code]).result)
                #expect(view["phase"] as? String == "revealing" && view["answer"] is NSNull)
            }
        }
        let done = try #require(try await ann.call("nextPhoto", ["code": code]).result)
        #expect(done["phase"] as? String == "complete" && done["currentPhoto"] is NSNull && done["answer"] is NSNull)
        let standings = try #require(done["standings"] as? [[String: Any]])
        #expect(standings.count == 3)
        let ordered = standings.compactMap { $0["score"] as? Int }
        #expect(ordered == ordered.sorted(by: >))
        for standing in standings {
            #expect(standing["score"] as? Int == scores[standing["playerId"] as? String ?? "", default: 0])
        }
        #expect(standings.first?["rank"] as? Int == 1)
        // Every photo of a finished quiz may be seen.
        for photoId in names.keys {
            #expect(try await QuizWire.http(port, "GET", "/quizzes/\(code)/photos/\(photoId)").status == 200)
        }
    }
}
