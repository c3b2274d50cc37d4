import Testing
@testable import ParlorRules

/// A session on a hand-moved clock: the seeded shuffles, tiles at their times (and caught up after a
/// gap), guesses and their scores, the three ways a photo is revealed, the standings, endless passes.
@Suite struct QuizRoundTests {
    static let paris = (48.8566, 2.3522)
    static let london = (51.5074, -0.1278)
    static let sydney = (-33.8688, 151.2093)

    /// Ann (host), Bo and Cy, one photo each: Ann's of Paris, Bo's of Sydney, Cy's of London.
    static func table(_ settings: QuizSettings = QuizSettings(), seed: UInt64 = 42) throws -> QuizTable {
        var table = try QuizTable(settings: settings, seed: seed, previews: .numbered(["paris", "sydney", "london"]))
        try table.apply(.join(playerName: "Bo"), by: user(2))
        try table.apply(.join(playerName: "Cy"), by: user(3))
        try table.apply(.addPhoto(QuizTable.photo("paris", by: user(1), at: paris)), by: user(1))
        try table.apply(.addPhoto(QuizTable.photo("sydney", by: user(2), at: sydney)), by: user(2))
        try table.apply(.addPhoto(QuizTable.photo("london", by: user(3), at: london)), by: user(3))
        return table
    }

    @Test func theStartShufflesBySeedAndStartsTheFirstPhotoWithItsTimers() throws {
        var table = try Self.table(QuizSettings(revealSpeed: .fast, timerDuration: 20))
        let outcome = try table.apply(.start, by: user(1))
        var generator = SeededGenerator(seed: 42, stream: 1)
        #expect(table.quiz.playlist == generator.shuffle([0, 1, 2]))
        let round = try #require(table.quiz.round)
        #expect(round.number == 1 && round.photo == table.quiz.playlist[0] && round.revealedCount == 1)
        #expect(Set(round.tileOrder) == Set(0..<36) && round.tileOrder.count == 36)
        #expect(round.revealEndsAt == t0.adding(seconds: 5) && round.guessDeadline == t0.adding(seconds: 20))
        let schedules = QuizTable.schedules(outcome)
        #expect(schedules["reveal-tiles"]?.0 == round.appearance(ofTile: 1))
        #expect(schedules["reveal-tiles"]?.1 == .revealTiles(round: 1))
        #expect(schedules["guess-deadline"]?.0 == t0.adding(seconds: 20))
        #expect(schedules["guess-deadline"]?.1 == .closeGuesses(round: 1))
        // The same seed plays the same game; another seed another.
        var again = try Self.table(QuizSettings(revealSpeed: .fast, timerDuration: 20))
        try again.apply(.start, by: user(1))
        #expect(again.quiz.playlist == table.quiz.playlist && again.quiz.round?.tileOrder == round.tileOrder)
        var other = try Self.table(QuizSettings(revealSpeed: .fast, timerDuration: 20), seed: 7)
        try other.apply(.start, by: user(1))
        #expect(other.quiz.round?.tileOrder != round.tileOrder)
    }

    @Test func tilesAppearEvenlyOverTheRevealAndCatchUpAfterAGap() throws {
        var table = try Self.table(QuizSettings(revealSpeed: .medium))
        try table.apply(.start, by: user(1))
        let round = try #require(table.quiz.round)
        #expect(round.appearance(ofTile: 0) == t0 && round.appearance(ofTile: 35) == t0.adding(seconds: 10))
        #expect(round.appearance(ofTile: 7) == t0.adding(milliseconds: 2000))
        // One tile: the next timer is for the tile after.
        table.now = round.appearance(ofTile: 1)
        var outcome = try table.fire(.revealTiles(round: 1))
        #expect(table.quiz.round?.revealedCount == 2 && outcome.events == [.tilesRevealed(count: 2)])
        #expect(QuizTable.schedules(outcome)["reveal-tiles"]?.0 == round.appearance(ofTile: 2))
        // A timer that fires early (the clock stepped back) changes nothing.
        let version = table.quiz.version
        #expect(try table.fire(.revealTiles(round: 1)).events.isEmpty && table.quiz.version == version)
        // The server was down for four seconds: every tile due by now appears at once, exactly one version.
        table.now = t0.adding(milliseconds: 6_000)
        outcome = try table.fire(.revealTiles(round: 1))
        #expect(table.quiz.round?.revealedCount == 22 && table.quiz.version == version + 1)
        #expect(QuizTable.schedules(outcome)["reveal-tiles"]?.0 == round.appearance(ofTile: 22))
        table.now = t0.adding(seconds: 10)
        outcome = try table.fire(.revealTiles(round: 1))
        #expect(table.quiz.round?.revealedCount == 36 && QuizTable.cancelled(outcome) == ["reveal-tiles"])
        // A timer of another round is stale.
        #expect(try table.fire(.revealTiles(round: 2)).events.isEmpty)
    }

    @Test func theViewShowsOnlyAppearedTilesAndNoAnswerUntilTheReveal() throws {
        var table = try Self.table()
        try table.apply(.start, by: user(1))
        table.now = t0.adding(milliseconds: 600)
        try table.fire(.revealTiles(round: 1))
        let round = try #require(table.quiz.round)
        let photo = table.quiz.photos[round.photo]
        let view = table.quiz.publicView
        let current = try #require(view.currentPhoto)
        #expect(current.revealedTiles == Array(round.tileOrder.prefix(3)) && current.photoId == photo.id)
        #expect(current.previews == Dictionary(uniqueKeysWithValues: current.revealedTiles.map { ($0, "tile-\($0)") }))
        #expect(view.answer == nil && view.guesses == nil && view.standings == nil && view.photoIndex == 0 && view.photoCount == 3)
        // Tiles: the appeared ones only; the whole photo: not yet.
        let hidden = try #require((0..<36).first { !current.revealedTiles.contains($0) })
        #expect(throws: Never.self) { try table.quiz.checkTileVisible(photoId: photo.id, tile: current.revealedTiles[0]) }
        #expect(quizError { try table.quiz.checkTileVisible(photoId: photo.id, tile: hidden) } == .tileHidden(tile: hidden))
        #expect(quizError { try table.quiz.checkTileVisible(photoId: photo.id, tile: 36) }
            == .invalidInput(field: "tile", reason: "tile must be between 0 and 35 (got 36)."))
        #expect(quizError { try table.quiz.checkTileVisible(photoId: "nope", tile: 0) } == .photoNotFound(id: "nope"))
        #expect(quizError { try table.quiz.checkPhotoVisible(photoId: photo.id) } == .photoHidden)
        let other = try #require(table.quiz.photos.first { $0.id != photo.id })
        #expect(quizError { try table.quiz.checkTileVisible(photoId: other.id, tile: 0) } == .tileHidden(tile: 0))
    }

    @Test func guessesAreCheckedReplacedAndTheLastEligibleOneReveals() throws {
        var table = try Self.table()
        try table.apply(.start, by: user(1))
        let round = try #require(table.quiz.round)
        let uploader = table.quiz.photos[round.photo].uploadedBy
        let guessers = [user(1), user(2), user(3)].filter { $0 != uploader }
        let somewhere = GeoCoordinate(latitude: 10, longitude: 10)!
        #expect(quizError { try table.apply(.guess(somewhere), by: uploader) } == .ownPhoto)
        #expect(quizError { try table.apply(.guess(somewhere), by: user(9)) } == .notMember)
        try table.apply(.guess(somewhere), by: guessers[0])
        try table.apply(.guess(GeoCoordinate(latitude: 51.5074, longitude: -0.1278)!), by: guessers[0])
        #expect(table.quiz.round?.guesses.count == 1 && table.quiz.phase == .revealing)
        #expect(table.quiz.publicView.players.map(\.hasGuessed) == [user(1), user(2), user(3)].map { $0 == guessers[0] })
        let outcome = try table.apply(.guess(GeoCoordinate(latitude: 48.8566, longitude: 2.3522)!), by: guessers[1])
        #expect(table.quiz.phase == .revealed && outcome.events.last == .photoRevealed(round: 1))
        #expect(QuizTable.cancelled(outcome) == ["reveal-tiles", "guess-deadline"])
        #expect(table.quiz.round?.revealedCount == 36 && table.quiz.photos[round.photo].isRevealed)
        #expect(quizError { try table.apply(.guess(somewhere), by: guessers[0]) } == .invalidState(reason: "No photo is being guessed now."))
    }

    @Test func theRevealScoresByHaversineDistance() throws {
        // Hand-computed (R = 6371.0088 km): Paris–London 343.557 km → round(5000·e^(−343.557/1492.7)) = 3972;
        // a guess 22 m from the answer → 5000; Sydney–Paris 16,960.5 km → 0.
        #expect(abs(GeoCoordinate(latitude: 48.8566, longitude: 2.3522)!.distanceKm(to: GeoCoordinate(latitude: 51.5074, longitude: -0.1278)!) - 343.5565) < 0.001)
        #expect(QuizScoring.points(distanceKm: 343.5565) == 3972)
        #expect(QuizScoring.points(distanceKm: 0.0222) == 5000 && QuizScoring.points(distanceKm: 1) == 4997)
        #expect(QuizScoring.points(distanceKm: 16_960.52) == 0)
        #expect(abs(GeoCoordinate(latitude: 0, longitude: 0)!.distanceKm(to: GeoCoordinate(latitude: 0, longitude: 180)!) - 20_015.1144) < 0.001)
        // Across the antimeridian the short way: 1° of the equator.
        #expect(abs(GeoCoordinate(latitude: 0, longitude: 179.5)!.distanceKm(to: GeoCoordinate(latitude: 0, longitude: -179.5)!) - 111.195) < 0.001)

        var table = try Self.table()
        try table.apply(.start, by: user(1))
        var round = try #require(table.quiz.round)
        // Play until the Paris photo (Ann's) is up, so Bo and Cy guess it.
        while table.quiz.photos[round.photo].id != "paris" {
            try table.apply(.reveal, by: user(1))
            try table.apply(.nextPhoto, by: user(1))
            round = try #require(table.quiz.round)
        }
        for index in table.quiz.players.indices { table.quiz.players[index].score = 0 }
        try table.apply(.guess(GeoCoordinate(latitude: 51.5074, longitude: -0.1278)!), by: user(2))  // London
        try table.apply(.guess(GeoCoordinate(latitude: 48.8568, longitude: 2.3522)!), by: user(3))  // 22 m off
        let view = table.quiz.publicView
        let guesses = try #require(view.guesses)
        #expect(guesses.map(\.playerId) == [user(3), user(2)] && guesses.map(\.points) == [5000, 3972])
        #expect(abs(guesses[1].distanceKm - 343.5565) < 0.001)
        #expect(view.players.map(\.score) == [0, 3972, 5000])
        let answer = try #require(view.answer)
        #expect(answer.coordinate == GeoCoordinate(latitude: 48.8566, longitude: 2.3522)!)
        #expect(answer.city == "Paris" && answer.country == "France" && answer.displayDate == "Jun 14, 2024" && !answer.isOffline)
        #expect(answer.takenAt?.iso8601 == "2024-06-14T09:30:00+02:00")
        #expect(view.currentPhoto?.revealedTiles.count == 36)
        #expect(throws: Never.self) { try table.quiz.checkPhotoVisible(photoId: "paris") }
    }

    @Test func theTimerRevealsWithNoGuessesAndTheHostCanRevealEarly() throws {
        var table = try Self.table(QuizSettings(timerDuration: 10))
        try table.apply(.start, by: user(1))
        table.now = t0.adding(milliseconds: 9_999)
        #expect(try table.fire(.closeGuesses(round: 1)).events.isEmpty)
        table.now = t0.adding(seconds: 10)
        let uploader = try #require(table.quiz.round.map { table.quiz.photos[$0.photo].uploadedBy })
        let late = uploader == user(2) ? user(3) : user(2)
        #expect(quizError { try table.apply(.guess(GeoCoordinate(latitude: 1, longitude: 1)!), by: late) } == .invalidState(reason: "Time is up for this photo."))
        let outcome = try table.fire(.closeGuesses(round: 1))
        #expect(outcome.events == [.photoRevealed(round: 1)] && table.quiz.phase == .revealed)
        #expect(table.quiz.publicView.guesses == [] && table.quiz.players.allSatisfy { $0.score == 0 })
        #expect(try table.fire(.closeGuesses(round: 1)).events.isEmpty)

        #expect(quizError { try table.apply(.reveal, by: user(1)) } == .invalidState(reason: "No photo is being guessed now."))
        #expect(quizError { try table.apply(.nextPhoto, by: user(2)) } == .notHost(action: "move on to the next photo"))
        try table.apply(.nextPhoto, by: user(1))
        #expect(quizError { try table.apply(.nextPhoto, by: user(1)) } == .invalidState(reason: "Reveal this photo first."))
        #expect(quizError { try table.apply(.reveal, by: user(2)) } == .notHost(action: "reveal the photo"))
        let early = try table.apply(.reveal, by: user(1))
        #expect(early.events == [.photoRevealed(round: 2)] && QuizTable.cancelled(early) == ["reveal-tiles", "guess-deadline"])
    }

    @Test func theLastPhotoLeadsToTheStandingsWithSharedRanks() throws {
        var table = try Self.table(QuizSettings(sessionLength: .five))
        try table.apply(.start, by: user(1))
        #expect(table.quiz.publicView.photoCount == 3)
        for number in 1...3 {
            #expect(table.quiz.round?.number == number && table.quiz.publicView.photoIndex == number - 1)
            try table.apply(.reveal, by: user(1))
            try table.apply(.nextPhoto, by: user(1))
        }
        #expect(table.quiz.phase == .complete && table.quiz.round == nil && table.quiz.finishedAt == t0)
        #expect(table.quiz.owner == nil && table.quiz.playlist.count == 3)
        table.quiz.players[0].score = 10
        table.quiz.players[1].score = 30
        table.quiz.players[2].score = 10
        let standings = try #require(table.quiz.publicView.standings)
        #expect(standings.map(\.playerId) == [user(2), user(1), user(3)] && standings.map(\.rank) == [1, 2, 2])
        #expect(quizError { try table.apply(.quit, by: user(1)) } == .invalidState(reason: "The quiz is already over."))
        #expect(quizError { try table.apply(.join(playerName: "Late"), by: user(7)) } == .invalidState(reason: "The quiz is over; start a new one."))
    }

    @Test func aSessionPlaysItsLengthAndTheHostMayQuitAnyTime() throws {
        var table = try QuizTable(settings: QuizSettings(sessionLength: .five), previews: FixedPreviews())
        for n in 0..<8 { try table.apply(.addPhoto(QuizTable.photo("p\(n)", by: user(1), at: (1, 1))), by: user(1)) }
        try table.apply(.start, by: user(1))
        #expect(table.quiz.playlist.count == 5 && Set(table.quiz.playlist).count == 5)
        // Without previews a photo still plays: tiles appear, none has a preview.
        #expect(table.quiz.publicView.currentPhoto?.previews == [:] && table.quiz.publicView.currentPhoto?.revealedTiles.count == 1)
        #expect(quizError { try table.apply(.quit, by: user(2)) } == .notMember)
        let outcome = try table.apply(.quit, by: user(1))
        #expect(table.quiz.phase == .complete && QuizTable.cancelled(outcome) == ["reveal-tiles", "guess-deadline"])
        #expect(table.quiz.publicView.answer == nil)
        #expect(quizError { try table.quiz.checkPhotoVisible(photoId: "p\(table.quiz.playlist[0])") } != nil)
    }

    @Test func anEndlessSessionShufflesAgainAndGoesOnUntilTheHostQuits() throws {
        var table = try Self.table(QuizSettings(sessionLength: .endless))
        try table.apply(.start, by: user(1))
        var played: [Int] = []
        for _ in 0..<7 {
            let round = try #require(table.quiz.round)
            played.append(round.photo)
            try table.apply(.reveal, by: user(1))
            try table.apply(.nextPhoto, by: user(1))
        }
        #expect(table.quiz.phase == .revealing && table.quiz.round?.number == 8 && table.quiz.pass == 2)
        #expect(Set(played[0..<3]) == [0, 1, 2] && Set(played[3..<6]) == [0, 1, 2])
        #expect(played[2] != played[3] && played[5] != played[6])
        #expect(table.quiz.publicView.photoCount == 3)
        try table.apply(.quit, by: user(1))
        #expect(table.quiz.phase == .complete)
    }

    @Test func aPlayerLeavingLetsTheOthersGuessesReveal() throws {
        var table = try Self.table()
        try table.apply(.start, by: user(1))
        let uploader = try #require(table.quiz.round.map { table.quiz.photos[$0.photo].uploadedBy })
        let guessers = [user(1), user(2), user(3)].filter { $0 != uploader }
        try table.apply(.guess(GeoCoordinate(latitude: 1, longitude: 1)!), by: guessers[0])
        let outcome = try table.apply(.leave, by: guessers[1])
        #expect(table.quiz.phase == .revealed && outcome.events.last == .photoRevealed(round: 1))
        #expect(table.quiz.mayExpire)
    }
}
