import Testing
@testable import ParlorRules

/// A quiz that was played is filed in its players' history when it ends; one quit before its start
/// (never played) is not.
@Suite struct QuizHistoryTests {
    @Test func aPlayedSessionIsFiledWhenItEnds() throws {
        var table = try QuizRoundTests.table()
        #expect(try table.apply(.start, by: user(1)).archive == nil)
        table.now = t0.adding(seconds: 90)
        let outcome = try table.apply(.quit, by: user(1))
        let archive = try #require(outcome.archive)
        #expect(archive.key == "quiz-1" && archive.players == [user(1), user(2), user(3)] && archive.finishedAt == t0.adding(seconds: 90))
        #expect(table.quiz.stage == .finished)
    }

    @Test func aQuizQuitBeforeItsStartIsNotFiled() throws {
        var table = try QuizRoundTests.table()
        let outcome = try table.apply(.quit, by: user(1))
        #expect(outcome.archive == nil && table.quiz.stage == .finished)
    }
}
