import Testing
@testable import ParlorRules

/// Before the start: settings read from text and refused by field, seats, uploads and albums.
@Suite struct QuizSetupTests {
    @Test func settingsAreReadFieldByFieldOverTheDefaults() throws {
        let base = QuizSettings()
        #expect(base == QuizSettings(revealSpeed: .medium, timerDuration: 30, sessionLength: .ten, albums: []))
        let read = try QuizSettings.reading(revealSpeed: "fast", timerDuration: 120, sessionLength: "endless", albums: [" Trip ", "Trip", "Home"], over: base)
        #expect(read == QuizSettings(revealSpeed: .fast, timerDuration: 120, sessionLength: .endless, albums: ["Trip", "Home"]))
        #expect(try QuizSettings.reading(revealSpeed: nil, timerDuration: 10, sessionLength: nil, albums: nil, over: read).timerDuration == 10)
        #expect(RevealSpeed.slow.milliseconds == 15_000 && RevealSpeed.medium.milliseconds == 10_000 && RevealSpeed.fast.milliseconds == 5_000)
        #expect(SessionLength.allCases.map(\.photoCount) == [5, 10, 20, nil])
    }

    @Test(arguments: [
        ("revealSpeed", "warp", 30, "10", [String]()),
        ("timerDuration", "slow", 9, "10", []),
        ("timerDuration", "slow", 121, "10", []),
        ("sessionLength", "slow", 30, "7", []),
        ("albums", "slow", 30, "5", [""]),
        ("albums", "slow", 30, "5", Array(repeating: "a", count: 21)),
    ])
    func aBadSettingIsRefusedByName(field: String, speed: String, timer: Int, length: String, albums: [String]) {
        let error = quizError { _ = try QuizSettings.reading(revealSpeed: speed, timerDuration: timer, sessionLength: length, albums: albums, over: QuizSettings()) }
        guard case .invalidInput(let named, let reason) = error else {
            Issue.record("expected invalidInput, got \(String(describing: error))")
            return
        }
        #expect(named == field)
        #expect(reason.hasPrefix(field))
    }

    @Test func seatsHostAndTheLastOneOut() throws {
        var table = try QuizTable()
        #expect(table.quiz.version == 1 && table.quiz.players.map(\.name) == ["Ann"])
        try table.apply(.join(playerName: "Bo"), by: user(2))
        try table.apply(.join(playerName: "Cy"), by: user(3))
        #expect(table.quiz.version == 3)
        // Joining again with the same name changes nothing; another name renames.
        try table.apply(.join(playerName: "Bo"), by: user(2))
        #expect(table.quiz.version == 3)
        try table.apply(.join(playerName: "Bob"), by: user(2))
        #expect(table.quiz.player(user(2))?.name == "Bob" && table.quiz.version == 4)
        #expect(quizError { try table.apply(.join(playerName: " "), by: user(4)) } == .invalidInput(field: "playerName", reason: "playerName must not be empty."))

        let left = try table.apply(.leave, by: user(1))
        #expect(left.events == [.left(user(1)), .hostChanged(user(2))] && table.quiz.hostId == user(2))
        #expect(quizError { try table.apply(.leave, by: user(1)) } == .notMember)
        try table.apply(.leave, by: user(3))
        let last = try table.apply(.leave, by: user(2))
        #expect(last.deletes && last.events.last == .deleted)
    }

    @Test func aFullQuizSeatsNoOneMore() throws {
        var table = try QuizTable()
        for n in 2...QuizLimits.maxPlayers { try table.apply(.join(playerName: "P\(n)"), by: user(n)) }
        #expect(quizError { try table.apply(.join(playerName: "Late"), by: user(99)) } == .quizFull(capacity: QuizLimits.maxPlayers))
    }

    @Test func photosArriveFromMembersBeforeTheStartUpToTheLimit() throws {
        var table = try QuizTable()
        try table.apply(.join(playerName: "Bo"), by: user(2))
        #expect(quizError { try table.apply(.addPhoto(QuizTable.photo("p", by: user(3), at: (1, 1))), by: user(3)) } == .notMember)
        // A photo record names its uploader: nobody adds one as somebody else.
        #expect(quizError { try table.apply(.addPhoto(QuizTable.photo("p", by: user(1), at: (1, 1))), by: user(2)) }
            == .invalidInput(field: "photo", reason: "The photo is not this upload's."))
        for n in 0..<QuizLimits.maxPhotos {
            try table.apply(.addPhoto(QuizTable.photo("p\(n)", by: user(1 + n % 2), at: (1, 1), album: n < 3 ? "Trip" : "Home")), by: user(1 + n % 2))
        }
        #expect(quizError { try table.apply(.addPhoto(QuizTable.photo("more", by: user(1), at: (1, 1))), by: user(1)) }
            == .tooManyPhotos(limit: QuizLimits.maxPhotos))
        #expect(table.quiz.albums.map(\.name) == ["Trip", "Home"] && table.quiz.albums.map(\.photoCount) == [3, 97])
        let view = table.quiz.publicView
        #expect(view.uploadCount == 100 && view.players.map(\.photoCount) == [50, 50] && view.photoCount == 10)
    }

    @Test func onlyTheHostChangesSettingsAndStartsAndOnlyWithPhotosInTheChosenAlbums() throws {
        var table = try QuizTable()
        try table.apply(.join(playerName: "Bo"), by: user(2))
        #expect(quizError { try table.apply(.start, by: user(1)) } == .noPhotos)
        try table.apply(.addPhoto(QuizTable.photo("p1", by: user(2), at: (1, 1), album: "Trip")), by: user(2))
        #expect(quizError { try table.apply(.start, by: user(2)) } == .notHost(action: "start the quiz"))
        #expect(quizError { try table.apply(.start, by: user(9)) } == .notMember)
        #expect(quizError { try table.apply(.updateSettings(QuizSettings(albums: ["Home"])), by: user(2)) } == .notHost(action: "change the settings"))
        try table.apply(.updateSettings(QuizSettings(albums: ["Home"])), by: user(1))
        #expect(quizError { try table.apply(.start, by: user(1)) }
            == .invalidInput(field: "albums", reason: "albums names \"Home\", which holds no photos in this quiz."))
        let version = table.quiz.version
        try table.apply(.updateSettings(QuizSettings(albums: ["Home"])), by: user(1))
        #expect(table.quiz.version == version)
        try table.apply(.updateSettings(QuizSettings(albums: ["Trip"])), by: user(1))
        try table.apply(.start, by: user(1))
        #expect(table.quiz.phase == .revealing)
        #expect(quizError { try table.apply(.start, by: user(1)) } == .invalidState(reason: "The quiz has already started."))
        #expect(quizError { try table.apply(.addPhoto(QuizTable.photo("p2", by: user(2), at: (1, 1))), by: user(2)) }
            == .invalidState(reason: "Photos can be added only before the quiz starts."))
        #expect(quizError { try table.apply(.updateSettings(QuizSettings()), by: user(1)) }
            == .invalidState(reason: "The settings can be changed only before the quiz starts."))
    }

    @Test func aPlayerCannotPassForTheClock() throws {
        var table = try QuizTable()
        #expect(quizError { try table.apply(.revealTiles(round: 1), by: user(1)) }
            == .invalidState(reason: "Only the server's clock reveals tiles and closes guesses."))
        #expect(quizError { try table.fire(.start) } == .invalidState(reason: "The clock fires only a round's timers."))
    }
}
