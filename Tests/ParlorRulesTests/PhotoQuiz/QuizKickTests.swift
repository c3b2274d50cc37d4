import Testing
@testable import ParlorRules

/// The host removes a player (`PhotoQuiz+Kick`): for them it is leaving — their seat, points and guess
/// go, their photos stay; nobody else may, the host not themselves, and not once the quiz is over.
@Suite struct QuizKickTests {
    @Test func beforeTheStartTheSeatGoesAndThePhotosStay() throws {
        var table = try QuizRoundTests.table()
        let version = table.quiz.version
        let outcome = try table.apply(PhotoQuiz.kick(user(2)), by: user(1))
        #expect(outcome.events == [.removed(user(2))] && outcome.effects.isEmpty)
        #expect(table.quiz.members == [user(1), user(3)] && table.quiz.version == version + 1)
        #expect(table.quiz.photos.map(\.id) == ["paris", "sydney", "london"], "the photos are the quiz's")
    }

    @Test func duringAPhotoTheGuessGoesAndTheLastMissingGuessRevealsIt() throws {
        var table = try QuizRoundTests.table(QuizSettings(revealSpeed: .fast, timerDuration: 20))
        try table.apply(.start, by: user(1))
        let uploader = table.quiz.photos[try #require(table.quiz.round).photo].uploadedBy
        let guessers = [user(1), user(2), user(3)].filter { $0 != uploader }
        try table.apply(.guess(GeoCoordinate(latitude: 10, longitude: 10)!), by: guessers[0])
        let removed = guessers[1] == user(1) ? guessers[0] : guessers[1]
        let outcome = try table.apply(.removePlayer(removed), by: user(1))
        #expect(outcome.events.first == .removed(removed) && !table.quiz.isMember(removed))
        #expect(table.quiz.round?.guesses.contains { $0.playerId == removed } != true)
        if removed == guessers[1] {
            // Everyone left has guessed: the photo is revealed, as when the last one guesses.
            #expect(table.quiz.phase == .revealed && outcome.events.contains(.photoRevealed(round: 1)))
        }
    }

    @Test func refusalsSayWhoMayAndWhen() throws {
        var table = try QuizRoundTests.table()
        let version = table.quiz.version
        func refusal(_ player: UserID, by caller: UserID) -> PhotoQuizError? {
            do {
                try table.apply(.removePlayer(player), by: caller)
                return nil
            } catch {
                return error
            }
        }
        #expect(refusal(user(3), by: user(2)) == .notHost(action: "remove a player"))
        #expect(refusal(user(3), by: user(9)) == .notMember)
        #expect(refusal(user(9), by: user(1)) == .playerNotFound(id: user(9).rawValue))
        #expect(refusal(user(1), by: user(1)) == .invalidState(reason: "The host cannot remove themselves; leave the quiz instead."))
        #expect(table.quiz.version == version)
        table = try QuizRematchTests.finished()
        #expect(refusal(user(2), by: user(1)) == .invalidState(reason: "The quiz is over; its standings stay as they are."))
    }
}
