/// The session: the start shuffles the photos, each photo is a round on the server's clock — its tiles
/// appear one by one, guesses arrive until the timer or the last eligible player or the host reveals
/// it — and the host moves on until the last photo or quits.
///
/// The two timers of a round are scheduled actions: `revealTiles` at the next tile's time, and
/// `closeGuesses` at the deadline. Both carry the round's number, so a stale one (the round was
/// revealed early, or a later round runs) changes nothing.
extension PhotoQuiz {
    /// The key of the running round's next-tile timer.
    public static let revealSchedule = "reveal-tiles"
    /// The key of the running round's guess deadline.
    public static let guessSchedule = "guess-deadline"

    typealias Effects = [GameEffect<PhotoQuizAction>]

    mutating func start(by user: UserID, at now: Instant, previews: any TilePreviewSource) throws(PhotoQuizError) -> ([PhotoQuizEvent], Effects) {
        try requireHost(user, to: "start the quiz")
        guard phase == .waiting else { throw .invalidState(reason: "The quiz has already started.") }
        try checkAlbums()
        let pool = pool
        guard !pool.isEmpty else { throw .noPhotos }
        var generator = SeededGenerator(seed: seed, stream: Self.orderStream(pass: 0))
        let shuffled = generator.shuffle(pool)
        playlist = settings.sessionLength.photoCount.map { Array(shuffled.prefix($0)) } ?? shuffled
        pass = 0
        phase = .revealing
        let effects = startRound(1, at: now, previews: previews)
        version += 1
        return ([.started, .photoStarted(round: 1)], effects)
    }

    mutating func revealTiles(round number: Int, at now: Instant) -> ([PhotoQuizEvent], Effects) {
        guard phase == .revealing, var round, round.number == number else { return ([], []) }
        let due = round.tilesDue(at: now)
        guard due > round.revealedCount else { return ([], []) }
        round.revealedCount = due
        self.round = round
        version += 1
        return ([.tilesRevealed(count: due)], nextTileTimer(round))
    }

    mutating func closeGuesses(round number: Int, at now: Instant) -> ([PhotoQuizEvent], Effects) {
        guard phase == .revealing, let round, round.number == number, now >= round.guessDeadline else { return ([], []) }
        let effects = revealRound()
        version += 1
        return ([.photoRevealed(round: number)], effects)
    }

    /// A guess at the current photo; the last eligible player's guess reveals it.
    mutating func guess(_ coordinate: GeoCoordinate, by user: UserID, at now: Instant) throws(PhotoQuizError) -> ([PhotoQuizEvent], Effects) {
        guard isMember(user) else { throw .notMember }
        guard phase == .revealing, var round else { throw .invalidState(reason: "No photo is being guessed now.") }
        guard now < round.guessDeadline else { throw .invalidState(reason: "Time is up for this photo.") }
        guard photos[round.photo].uploadedBy != user else { throw .ownPhoto }
        let guess = QuizGuess(playerId: user, coordinate: coordinate, at: now)
        if let index = round.guesses.firstIndex(where: { $0.playerId == user }) {
            round.guesses[index] = guess
        } else {
            round.guesses.append(guess)
        }
        self.round = round
        var events: [PhotoQuizEvent] = [.guessed(user)]
        var effects: Effects = []
        if everyoneGuessed {
            effects = revealRound()
            events.append(.photoRevealed(round: round.number))
        }
        version += 1
        return (events, effects)
    }

    /// The host reveals the current photo before its timer.
    mutating func reveal(by user: UserID) throws(PhotoQuizError) -> ([PhotoQuizEvent], Effects) {
        try requireHost(user, to: "reveal the photo")
        guard phase == .revealing, let round else { throw .invalidState(reason: "No photo is being guessed now.") }
        let effects = revealRound()
        version += 1
        return ([.photoRevealed(round: round.number)], effects)
    }

    mutating func nextPhoto(by user: UserID, at now: Instant, previews: any TilePreviewSource) throws(PhotoQuizError) -> ([PhotoQuizEvent], Effects) {
        try requireHost(user, to: "move on to the next photo")
        guard phase == .revealed, let round else {
            throw .invalidState(reason: phase == .revealing ? "Reveal this photo first." : "No photo has been revealed to move on from.")
        }
        version += 1
        if settings.sessionLength == .endless || round.number < playlist.count {
            phase = .revealing
            let number = round.number + 1
            return ([.photoStarted(round: number)], startRound(number, at: now, previews: previews))
        }
        return ([.completed], complete(at: now))
    }

    mutating func quit(by user: UserID, at now: Instant) throws(PhotoQuizError) -> ([PhotoQuizEvent], Effects) {
        try requireHost(user, to: "end the quiz")
        guard phase != .complete else { throw .invalidState(reason: "The quiz is already over.") }
        let effects = complete(at: now)
        version += 1
        return ([.completed], effects)
    }

    /// The players who may guess the current photo: everyone but its uploader.
    public var eligiblePlayers: [UserID] {
        guard let round else { return [] }
        let uploader = photos[round.photo].uploadedBy
        return players.map(\.id).filter { $0 != uploader }
    }

    /// Every eligible player has guessed (and there is at least one: with none, the timer runs).
    var everyoneGuessed: Bool {
        guard let round else { return false }
        let eligible = eligiblePlayers
        return !eligible.isEmpty && eligible.allSatisfy { player in round.guesses.contains { $0.playerId == player } }
    }

    // MARK: Steps

    /// Starts round `number`: its photo from the playlist (shuffled again at the start of each pass of
    /// an endless session), its tile order, its first tile, its timers.
    private mutating func startRound(_ number: Int, at now: Instant, previews: any TilePreviewSource) -> Effects {
        let position = (number - 1) % playlist.count
        if position == 0 && number > 1 {
            pass += 1
            let previous = playlist.last
            var generator = SeededGenerator(seed: seed, stream: Self.orderStream(pass: pass))
            playlist = generator.shuffle(playlist)
            // A new pass does not open with the photo the last one ended on.
            if playlist.count > 1 && playlist.first == previous { playlist.swapAt(0, 1) }
        }
        let photo = playlist[position]
        var generator = SeededGenerator(seed: seed, stream: Self.tileStream(round: number))
        let round = QuizRound(
            number: number, photo: photo, startedAt: now, revealEndsAt: now.adding(milliseconds: settings.revealSpeed.milliseconds),
            guessDeadline: now.adding(seconds: settings.timerDuration),
            tileOrder: generator.shuffle(Array(0..<QuizLimits.tileCount)), revealedCount: 1,
            previews: previews.previews(ofPhoto: photos[photo].id).flatMap { $0.tiles.count == QuizLimits.tileCount ? $0 : nil },
            guesses: [], scored: nil)
        self.round = round
        return nextTileTimer(round) + [.schedule(key: Self.guessSchedule, at: round.guessDeadline, .closeGuesses(round: number))]
    }

    private func nextTileTimer(_ round: QuizRound) -> Effects {
        guard round.revealedCount < round.tileOrder.count else { return [.cancelSchedule(key: Self.revealSchedule)] }
        return [.schedule(key: Self.revealSchedule, at: round.appearance(ofTile: round.revealedCount), .revealTiles(round: round.number))]
    }

    /// Shows every tile and the answer, scores the guesses and adds the points.
    mutating func revealRound() -> Effects {
        guard var round else { return [] }
        let answer = photos[round.photo].location
        let scored = round.guesses.map { guess in
            let distance = guess.coordinate.distanceKm(to: answer)
            return ScoredGuess(
                playerId: guess.playerId, coordinate: guess.coordinate, distanceKm: distance,
                points: QuizScoring.points(distanceKm: distance))
        }
        for guess in scored {
            if let index = players.firstIndex(where: { $0.id == guess.playerId }) { players[index].score += guess.points }
        }
        round.scored = scored.sorted { ($0.points, -$0.distanceKm) > ($1.points, -$1.distanceKm) }
        round.revealedCount = round.tileOrder.count
        self.round = round
        photos[round.photo].isRevealed = true
        phase = .revealed
        return [.cancelSchedule(key: Self.revealSchedule), .cancelSchedule(key: Self.guessSchedule)]
    }

    private mutating func complete(at now: Instant) -> Effects {
        phase = .complete
        round = nil
        finishedAt = now
        return [.cancelSchedule(key: Self.revealSchedule), .cancelSchedule(key: Self.guessSchedule)]
    }

    private static func orderStream(pass: Int) -> UInt64 { UInt64(pass) << 8 | 1 }
    private static func tileStream(round: Int) -> UInt64 { UInt64(round) << 8 | 2 }
}
