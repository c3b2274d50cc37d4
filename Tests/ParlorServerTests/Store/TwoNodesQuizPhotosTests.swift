// Only with the PostgreSQL trait (scripts/test.sh builds the tests with it): see Package.swift.
#if PostgreSQL
import Foundation
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// Two nodes on one PostgreSQL database: the photos of a quiz one node serves are not swept by the
/// other, which does not hold the quiz, when it expires a quiz of its own.
@Suite(.enabled(if: TestPostgres.unavailableReason == nil, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
struct TwoNodesQuizPhotosTests {
    @Test func anExpirySweepOnOneNodeKeepsThePhotosOfAQuizAnotherNodeServes() async throws {
        let jpegs = try await TestPhotos.make([QuizWire.paris])
        try await DurableStore.postgres.withPlace { place in
            let (storeA, storeB) = (try await place.open(), try await place.open())
            let clock = ManualClock()
            try await withParlor(store: storeA, clock: clock, configure: QuizWire.configure) { a in
                // A quiz on A that nobody joins, its creator gone: it expires.
                try await a.connect { ann in _ = try await QuizWire.seat(ann, []) }
                try await withParlor(store: storeB, clock: clock, configure: QuizWire.configure) { b in
                    try await b.connect { bo in
                        try await b.connect { cy in
                            let code = try await QuizWire.seat(bo, [cy])
                            #expect(try await QuizWire.upload(b.port, code, jpegs[0], as: bo).status == 201)
                            let photos = PostgresQuizPhotoStore(
                                files: PostgresObjectStorage(store: try #require(storeB as? PostgresStore), bucket: "quiz-photos"))
                            let folders = try await photos.quizzes()
                            #expect(folders.count == 1, "B's quiz has photos, A's none: \(folders)")
                            clock.advance(bySeconds: 24 * 3600)
                            #expect(await a.services.expireAbandonedGames() == 1)
                            #expect(try await photos.quizzes() == folders, "the quiz B serves keeps its photos")
                        }
                    }
                }
            }
            await storeA.close()
            await storeB.close()
        }
    }
}
#endif
