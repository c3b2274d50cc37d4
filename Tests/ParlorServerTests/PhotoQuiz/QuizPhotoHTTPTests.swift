import Foundation
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// Photos over HTTP: what an upload must be, refused before it is decoded where it can be, each with its
/// code and HTTP status; tiles and photos that do not exist or are not shown; and the quiz over REST.
@Suite struct QuizPhotoHTTPTests {
    static func refused(_ response: QuizWire.Response, _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == status, "\(String(decoding: response.body.prefix(300), as: UTF8.self))", sourceLocation: sourceLocation)
        #expect(response.errorCode == code, sourceLocation: sourceLocation)
    }

    @Test func uploadsThatCannotJoinAQuizAreRefusedWithTheirCode() async throws {
        let photos = try await TestPhotos.make([
            QuizWire.paris, TestPhotos.Spec(taken: "2024:01:01 10:00:00"), TestPhotos.Spec(width: 40, height: 40, latitude: 1, longitude: 1),
            TestPhotos.Spec(width: 1200, height: 900, latitude: 1, longitude: 1),
        ])
        let (located, unlocated, tiny, large) = (photos[0], photos[1], photos[2], photos[3])
        try await withParlor(configure: { $0.photoQuiz.maxUploadBytes = 16_000 }) { parlor in
            let port = parlor.port
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let code = try await QuizWire.seat(ann, [])
                    Self.refused(try await QuizWire.http(port, "POST", "/quizzes/\(code)/photos", body: located), 401, "UNAUTHENTICATED")
                    Self.refused(try await QuizWire.upload(port, "QQQQQ", located, as: ann), 404, "QUIZ_NOT_FOUND")
                    Self.refused(try await QuizWire.upload(port, code, located, as: bo), 403, "NOT_QUIZ_MEMBER")
                    Self.refused(try await QuizWire.upload(port, code, Array("just some text".utf8), as: ann), 415, "NOT_JPEG")
                    Self.refused(try await QuizWire.upload(port, code, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], as: ann), 415, "NOT_JPEG")
                    Self.refused(try await QuizWire.upload(port, code, [], as: ann), 415, "NOT_JPEG")
                    let noGPS = try await QuizWire.upload(port, code, unlocated, as: ann)
                    Self.refused(noGPS, 422, "NO_LOCATION")
                    #expect(noGPS.json.map { ($0["error"] as? [String: Any])?["status"] as? String } == "invalid-argument")
                    Self.refused(try await QuizWire.upload(port, code, tiny, as: ann), 422, "INVALID_IMAGE")
                    // A JPEG signature, then a segment that runs past the end of the file.
                    Self.refused(try await QuizWire.upload(port, code, [0xFF, 0xD8, 0xFF, 0xE1, 0x40, 0x00] + [UInt8](repeating: 0, count: 20), as: ann), 422, "INVALID_IMAGE")
                    Self.refused(try await QuizWire.upload(port, code, located, as: ann, album: " "), 400, "INVALID_INPUT")
                    // Over the route's limit: refused before the body is read.
                    #expect(located.count < 16_000 && large.count > 16_000)
                    let tooLarge = try await QuizWire.upload(port, code, large, as: ann)
                    #expect(tooLarge.status == 413)
                    // None of those reached the quiz.
                    #expect(try await ann.call("getQuiz", ["code": code]).result?["uploadCount"] as? Int == 0)
                    #expect(try await QuizWire.upload(port, code, located, as: ann).status == 201)
                    _ = try #require(try await ann.call("startQuiz", ["code": code]).result)
                    Self.refused(try await QuizWire.upload(port, code, located, as: ann), 409, "INVALID_STATE")
                }
            }
        }
    }

    @Test func aQuizHoldsAHundredPhotosAndABusyServerSaysSo() async throws {
        let jpeg = try await TestPhotos.make(TestPhotos.Spec(width: 90, height: 60, latitude: 10, longitude: 10))
        // A hundred uploads in a row are more than the default request rate allows.
        try await withParlor(configure: { $0.limits.requestBurst = 1000; $0.limits.requestsPerSecond = 1000 }) { parlor in
            try await parlor.connect { ann in
                let code = try await QuizWire.seat(ann, [])
                for _ in 0..<QuizLimits.maxPhotos {
                    #expect(try await QuizWire.upload(parlor.port, code, jpeg, as: ann).status == 201)
                }
                Self.refused(try await QuizWire.upload(parlor.port, code, jpeg, as: ann), 409, "TOO_MANY_PHOTOS")
            }
        }
        try await withParlor(configure: { $0.photoQuiz.maxUploadsInFlight = 0 }) { parlor in
            try await parlor.connect { ann in
                let code = try await QuizWire.seat(ann, [])
                Self.refused(try await QuizWire.upload(parlor.port, code, jpeg, as: ann), 503, "UPLOADS_BUSY")
            }
        }
    }

    @Test func tilesAndPhotosThatDoNotExistOrAreNotShown() async throws {
        let jpeg = try await TestPhotos.make(QuizWire.london)
        try await withParlor { parlor in
            let port = parlor.port
            try await parlor.connect { ann in
                let code = try await QuizWire.seat(ann, [])
                let photoId = try #require(try await QuizWire.upload(port, code, jpeg, as: ann).json?["photoId"] as? String)
                Self.refused(try await QuizWire.tile(port, code, photo: photoId, 0), 403, "TILE_HIDDEN")
                Self.refused(try await QuizWire.http(port, "GET", "/quizzes/\(code)/photos/\(photoId)"), 403, "PHOTO_HIDDEN")
                Self.refused(try await QuizWire.tile(port, code, photo: "no-such-photo", 0), 404, "PHOTO_NOT_FOUND")
                Self.refused(try await QuizWire.http(port, "GET", "/quizzes/\(code)/photos/../../etc"), 404, "NOT_FOUND")
                Self.refused(try await QuizWire.tile(port, code, photo: photoId, 36), 400, "INVALID_INPUT")
                Self.refused(try await QuizWire.http(port, "GET", "/quizzes/\(code)/photos/\(photoId)/tiles/x"), 400, "INVALID_INPUT")
                Self.refused(try await QuizWire.tile(port, "QQQQQ", photo: photoId, 0), 404, "QUIZ_NOT_FOUND")
                Self.refused(try await QuizWire.http(port, "DELETE", "/quizzes/\(code)/photos/\(photoId)"), 405, "METHOD_NOT_ALLOWED")
            }
        }
    }

    @Test func aQuizIsPlayedOverRESTToo() async throws {
        let jpeg = try await TestPhotos.make(QuizWire.kyoto)
        try await withParlor(configure: QuizWire.configure) { parlor in
            let (_, annSession) = try await parlor.http("POST", "/session")
            let (_, boSession) = try await parlor.http("POST", "/session")
            let ann = try #require((annSession as? [String: Any])?["token"] as? String)
            let bo = try #require((boSession as? [String: Any])?["token"] as? String)
            let boId = try #require((boSession as? [String: Any])?["userId"] as? String)
            let (created, seat) = try await parlor.http("POST", "/quizzes", body: ["playerName": "Ann", "revealSpeed": "fast"], token: ann)
            #expect(created == 201)
            let code = try #require(((seat as? [String: Any])?["quiz"] as? [String: Any])?["code"] as? String)
            #expect(try await parlor.http("POST", "/quizzes/\(code)/players", body: ["playerName": "Bo"], token: bo).0 == 200)
            let uploaded = try await QuizWire.http(parlor.port, "POST", "/quizzes/\(code)/photos?album=Japan", body: jpeg, token: ann)
            #expect(uploaded.status == 201 && uploaded.json?["takenAt"] as? String == "2019-04-02T07:00:00")
            let (patched, settings) = try await parlor.http("PATCH", "/quizzes/\(code)/settings", body: ["albums": ["Japan"]], token: ann)
            #expect(patched == 200 && ((settings as? [String: Any])?["settings"] as? [String: Any])?["albums"] as? [String] == ["Japan"])
            #expect(try await parlor.http("POST", "/quizzes/\(code)/start", token: ann).0 == 200)
            let (guessed, view) = try await parlor.http("POST", "/quizzes/\(code)/guesses", body: ["latitude": 34.6937, "longitude": 135.5023], token: bo)
            #expect(guessed == 200)
            let answer = try #require((view as? [String: Any])?["answer"] as? [String: Any])
            #expect(answer["city"] as? String == "Kyoto" && answer["displayDate"] as? String == "Apr 2, 2019")
            #expect(try await parlor.http("POST", "/quizzes/\(code)/next", token: ann).0 == 200)
            let (_, done) = try await parlor.http("GET", "/quizzes/\(code)")
            #expect((done as? [String: Any])?["phase"] as? String == "complete")
            // Only your own seat can be given up.
            #expect(try await parlor.http("DELETE", "/quizzes/\(code)/players/\(boId)", token: ann).0 == 403)
            #expect(try await parlor.http("DELETE", "/quizzes/\(code)/players/\(boId)", token: bo).0 == 204)
            #expect(try await parlor.http("POST", "/quizzes/\(code)/quit", token: ann).0 == 409)
        }
    }
}
