import Foundation
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// A quiz survives a restart in the middle of a reveal: its photos are still on disk, the tiles that
/// came due while the server was down appear at once, the next ones and the guess deadline keep their
/// times, and a guess made before the restart still scores.
@Suite struct QuizRestartTests {
    @Test func aRestartMidRevealResumesAtTheRightTileAndDeadline() async throws {
        let jpegs = try await TestPhotos.make([QuizWire.paris, QuizWire.sydney])
        try await withTemporaryDirectory { directory in
            let clock = ManualClock()
            let configure = { (configuration: inout ServerConfiguration) in
                QuizWire.configure(&configuration)
                configuration.photoQuiz.photoDirectory = directory + "/photos"
            }
            let start = clock.now
            let first = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            let (code, tokens, photoId, early) = try await withParlor(store: first, clock: clock, configure: configure) { parlor in
                try await parlor.connect { ann in
                    try await parlor.connect { bo in
                        try await parlor.connect { cy in
                            // Cy never guesses, so the photo waits for its deadline.
                            let code = try await QuizWire.seat(ann, [bo, cy], settings: ["revealSpeed": "slow", "timerDuration": 30, "sessionLength": "5"])
                            #expect(try await QuizWire.upload(parlor.port, code, jpegs[0], as: ann).status == 201)
                            #expect(try await QuizWire.upload(parlor.port, code, jpegs[1], as: bo).status == 201)
                            let started = try #require(try await ann.call("startQuiz", ["code": code]).result)
                            let current = try #require(started["currentPhoto"] as? [String: Any])
                            let photoId = try #require(current["photoId"] as? String)
                            let guesser = current["uploadedBy"] as? String == ann.userId ? bo : ann
                            #expect(try await guesser.call("submitGuess", ["code": code, "latitude": 10, "longitude": 20]).result != nil)
                            // 2 s in, with a tile every 15000/35 ms: 5 tiles are out.
                            clock.advance(to: start.adding(seconds: 2))
                            await parlor.services.timers.settled()
                            let view = try #require(try await ann.call("getQuiz", ["code": code]).result)
                            let tiles = try #require((view["currentPhoto"] as? [String: Any])?["revealedTiles"] as? [Int])
                            #expect(tiles.count == 5)
                            return (code, [try #require(ann.token), try #require(bo.token)], photoId, tiles)
                        }
                    }
                }
            }
            await first.close()
            // Down for three seconds: at 5 s, 12 tiles are due.
            clock.advance(to: start.adding(seconds: 5))
            let second = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
            try await withParlor(store: second, clock: clock, configure: configure) { (parlor: ParlorHarness) async throws in
                await parlor.services.timers.settled()
                try await parlor.connect(token: tokens[0]) { ann in
                    let view = try #require(try await ann.call("getQuiz", ["code": code]).result)
                    let current = try #require(view["currentPhoto"] as? [String: Any])
                    let tiles = try #require(current["revealedTiles"] as? [Int])
                    #expect(current["photoId"] as? String == photoId && view["phase"] as? String == "revealing")
                    #expect(tiles.count == 12 && Array(tiles.prefix(5)) == early)
                    #expect(current["guessDeadline"] as? String == start.adding(seconds: 30).iso8601)
                    #expect((current["previews"] as? [String: String])?.count == 12)
                    // The photo's tiles are still on disk: the ones out are served, the others not.
                    #expect(try await QuizWire.tile(parlor.port, code, photo: photoId, tiles[11]).status == 200)
                    let hidden = try #require((0..<36).first { !tiles.contains($0) })
                    #expect(try await QuizWire.tile(parlor.port, code, photo: photoId, hidden).errorCode == "TILE_HIDDEN")

                    // The next tile comes at its time, and the reveal at the deadline.
                    await eventually { parlor.services.timers.armedCount >= 2 }
                    clock.advance(to: start.adding(milliseconds: 15_000 * 12 / 35))
                    await parlor.services.timers.settled()
                    let later = try #require(try await ann.call("getQuiz", ["code": code]).result)
                    #expect(((later["currentPhoto"] as? [String: Any])?["revealedTiles"] as? [Int])?.count == 13)
                    clock.advance(to: start.adding(milliseconds: 29_999))
                    await parlor.services.timers.settled()
                    #expect(try await ann.call("getQuiz", ["code": code]).result?["phase"] as? String == "revealing")
                    clock.advance(to: start.adding(seconds: 30))
                    await parlor.services.timers.settled()
                    let revealed = try #require(try await ann.call("getQuiz", ["code": code]).result)
                    #expect(revealed["phase"] as? String == "revealed")
                    let guesses = try #require(revealed["guesses"] as? [[String: Any]])
                    #expect(guesses.count == 1 && guesses.first?["latitude"] as? Double == 10)
                    #expect(try await QuizWire.http(parlor.port, "GET", "/quizzes/\(code)/photos/\(photoId)").status == 200)
                }
            }
            await second.close()
        }
    }

    @Test func aDeletedQuizTakesItsPhotosAndTheFilesOfGoneQuizzesAreSwept() async throws {
        let jpeg = try await TestPhotos.make(QuizWire.paris)
        try await withTemporaryDirectory { directory in
            let photos = directory + "/photos"
            let configure = { (configuration: inout ServerConfiguration) in configuration.photoQuiz.photoDirectory = photos }
            try await withParlor(configure: configure) { parlor in
                try await parlor.connect { ann in
                    let code = try await QuizWire.seat(ann, [])
                    #expect(try await QuizWire.upload(parlor.port, code, jpeg, as: ann).status == 201)
                    let quizzes = try FileManager.default.contentsOfDirectory(atPath: photos)
                    #expect(quizzes.count == 1)
                    #expect(try FileManager.default.contentsOfDirectory(atPath: "\(photos)/\(quizzes[0])").count == 1)
                    // The last player leaving deletes the quiz, and its photos with it.
                    #expect(try await ann.call("leaveQuiz", ["code": code]).result == nil)
                    #expect(try FileManager.default.contentsOfDirectory(atPath: photos).isEmpty)
                }
            }
            // Files left by a quiz the store no longer has (a crash between them) go at start-up.
            let orphan = "\(photos)/3f2504e0-4f89-41d3-9a0c-0305e82c3301"
            try FileManager.default.createDirectory(atPath: orphan, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: orphan + "/photo.pqp", contents: Data([1, 2, 3]))
            try await withParlor(configure: configure) { (_: ParlorHarness) async throws in
                #expect(try FileManager.default.contentsOfDirectory(atPath: photos).isEmpty)
            }
        }
    }
}
