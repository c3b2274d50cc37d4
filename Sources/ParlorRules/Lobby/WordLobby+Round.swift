/// Rounds: start (creator only, from `OPEN`), submit words until the deadline, end when the timer fires.
extension WordLobby {
    /// Starts a round and asks for its end to be scheduled.
    public mutating func startGame(_ choice: GameChoice, by caller: UserID, at now: Instant) throws(LobbyError) -> LobbyEffect {
        guard caller == creator else {
            throw isMember(caller) ? .permissionDenied(.notCreator(action: "start a round")) : .permissionDenied(.notMember)
        }
        guard status != .finished else { throw .failedPrecondition(.matchFinished) }
        guard status == .open else { throw .failedPrecondition(.lobbyNotOpen) }
        let (game, followingIndex) = try resolve(choice)
        guard WordRules.timeLimits.contains(game.timeLimit) else {
            throw .invalidArgument(
                field: "timeLimit",
                reason: "timeLimit must be between \(WordRules.timeLimits.lowerBound) and \(WordRules.timeLimits.upperBound) seconds (got \(game.timeLimit)).")
        }
        let number = roundsStarted + 1
        let deadline = now.adding(seconds: game.timeLimit)
        round = LobbyRound(
            number: number, game: game, startedAt: now, deadline: deadline,
            entries: players.map { RoundEntry(userId: $0.userId, verdicts: []) })
        status = .game
        roundsStarted = number
        if let followingIndex { nextGameIndex = followingIndex }
        version += 1
        return .scheduleRoundEnd(round: number, at: deadline)
    }

    /// Judges and records a word for the caller. Repeats get an "already submitted" verdict and are
    /// not recorded (nothing changes). The word is trimmed; empty or longer than
    /// `WordRules.maxWordLength` is `invalidArgument`.
    public mutating func submitWord(
        _ rawWord: String, by caller: UserID, at now: Instant, wordList: some WordList
    ) throws(LobbyError) -> WordVerdict {
        guard isMember(caller) else { throw .permissionDenied(.notMember) }
        guard status == .game, var round else { throw .failedPrecondition(.roundNotRunning) }
        guard now < round.deadline else { throw .failedPrecondition(.deadlinePassed) }
        let word = rawWord.trimmingWhitespace()
        guard !word.isEmpty else { throw .invalidArgument(field: "word", reason: "word must not be empty.") }
        let length = word.count
        guard length <= WordRules.maxWordLength else {
            throw .invalidArgument(
                field: "word", reason: "word must be at most \(WordRules.maxWordLength) characters (got \(length)).")
        }
        let caseSensitive = round.game.caseSensitive
        let key = WordRules.normalized(word, caseSensitive: caseSensitive)
        if !round.entries.contains(where: { $0.userId == caller }) {
            round.entries.append(RoundEntry(userId: caller, verdicts: []))
        }
        let entryIndex = round.entries.firstIndex { $0.userId == caller } ?? round.entries.endIndex - 1
        let earlier = round.entries[entryIndex].verdicts
        if earlier.contains(where: { WordRules.normalized($0.word, caseSensitive: caseSensitive) == key }) {
            return .reject(word, "\"\(word)\" was already submitted.")
        }
        guard earlier.count < WordRules.maxWordsPerRound else {
            throw .resourceExhausted(.tooManyWords(limit: WordRules.maxWordsPerRound))
        }
        let verdict = WordChecker.check(word, for: round.game, wordList: wordList)
        round.entries[entryIndex].verdicts.append(verdict)
        self.round = round
        version += 1
        return verdict
    }

    /// The round timer firing. Ends round `number` and scores it, once its deadline has passed; the
    /// match's last round finishes the lobby (`.matchFinished`).
    /// Ignored (no events) when that round is not running — already ended, or a later one — or when
    /// `now` is still before the deadline; so it is safe to call more than once.
    public mutating func endRound(_ number: Int, at now: Instant) -> [LobbyEvent] {
        guard status == .game, let round, round.number == number, now >= round.deadline else { return [] }
        let results = RoundResults(scoring: round, players: players, endedAt: now)
        for index in players.indices {
            if let result = results.result(for: players[index].userId) { players[index].score = result.total }
        }
        lastRound = results
        self.round = nil
        version += 1
        if let rounds, number >= rounds {
            status = .finished
            finishedAt = now
            return [.roundEnded(number: number), .matchFinished]
        }
        status = .open
        return [.roundEnded(number: number)]
    }

    /// The game to play and, when it came from the catalog's play order, the index that follows it.
    private func resolve(_ choice: GameChoice) throws(LobbyError) -> (Game, Int?) {
        switch choice {
        case .game(let game):
            return (game, nil)
        case .byID(let id, let catalog):
            let order = catalog.playOrder
            guard let index = order.firstIndex(where: { $0.id == id }) else { throw .notFound(.game(id: id)) }
            return (order[index], index + 1)
        case .next(let catalog):
            let order = catalog.playOrder
            guard !order.isEmpty else { throw .failedPrecondition(.noGamesAvailable) }
            let index = nextGameIndex % order.count
            return (order[index], index + 1)
        }
    }
}
