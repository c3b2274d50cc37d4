import Testing
@testable import ParlorRules

/// A rematch of a finished quiz (`PhotoQuiz+Rematch`): the host starts it; the same players and
/// settings, scores at 0, no photos (nor the albums that named them), waiting; the old quiz records its
/// code once.
@Suite struct QuizRematchTests {
    static let next = "WPKTH"

    /// Ann (host), Bo and Cy played a session of three photos, some of it; Ann ended it.
    static func finished() throws -> QuizTable {
        var table = try QuizRoundTests.table(QuizSettings(revealSpeed: .fast, timerDuration: 20, sessionLength: .five, albums: ["Photos"]))
        try table.apply(.start, by: user(1))
        try table.apply(.reveal, by: user(1))
        table.now = t0.adding(seconds: 90)
        try table.apply(.quit, by: user(1))
        #expect(table.quiz.phase == .complete)
        return table
    }

    @Test func theSamePlayersAndSettingsWaitForNewPhotos() throws {
        let old = try Self.finished().quiz
        let later = t0.adding(seconds: 600)
        let next = try old.rematch(by: user(1), id: "quiz-2", code: Self.next, at: later)
        #expect(next.id == "quiz-2" && next.code.rawValue == Self.next && next.createdAt == later && next.hostId == user(1))
        #expect(next.players == [QuizPlayer(id: user(1), name: "Ann"), QuizPlayer(id: user(2), name: "Bo"), QuizPlayer(id: user(3), name: "Cy")])
        #expect(next.settings == QuizSettings(revealSpeed: .fast, timerDuration: 20, sessionLength: .five, albums: []))
        #expect(next.phase == .waiting && next.photos.isEmpty && next.round == nil && next.finishedAt == nil && next.rematch == nil)
        #expect(next.version == 1 && next.seed != old.seed)
        #expect(next.seed == (try old.rematch(by: user(1), id: "quiz-3", code: "WPKTQ", at: later)).seed, "the seed is the rules' own, not chance")
        #expect(next.owner == user(1), "it counts against the host, as a created quiz does")
    }

    @Test func theOldQuizRecordsTheCodeOnce() throws {
        var table = try Self.finished()
        let version = table.quiz.version
        #expect(table.quiz.publicView.rematch == nil)
        let outcome = try table.apply(PhotoQuiz.recordRematch(code: Self.next), by: user(1))
        #expect(outcome.events == [.rematchStarted(QuizCode(uncheckedRawValue: Self.next))] && outcome.effects.isEmpty)
        #expect(table.quiz.publicView.rematch?.rawValue == Self.next && table.quiz.version == version + 1)
        #expect(quizError { try table.apply(.recordRematch(code: "WPKTQ"), by: user(1)) }
            == .invalidState(reason: "A rematch was already started: quiz \(Self.next)."))
    }

    @Test func onlyTheHostOfAFinishedQuiz() throws {
        let old = try Self.finished().quiz
        #expect(quizError { _ = try old.rematch(by: user(2), id: "q2", code: Self.next, at: t0) } == .notHost(action: "start a rematch"))
        #expect(quizError { _ = try old.rematch(by: user(9), id: "q2", code: Self.next, at: t0) } == .notMember)
        var playing = try QuizRoundTests.table()
        try playing.apply(.start, by: user(1))
        let notOver = PhotoQuizError.invalidState(reason: "The quiz is not over yet; a rematch starts once it is.")
        #expect(quizError { _ = try playing.quiz.rematch(by: user(1), id: "q2", code: Self.next, at: t0) } == notOver)
        #expect(quizError { try playing.apply(.recordRematch(code: Self.next), by: user(1)) } == notOver)
    }
}
