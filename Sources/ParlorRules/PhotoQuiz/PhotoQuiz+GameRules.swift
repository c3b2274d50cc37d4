/// A photo quiz on the game kernel: one reducer over `PhotoQuizAction`. A round's tiles and its guess
/// deadline are scheduled actions fired by the server's clock; there is nothing private (a guess is
/// shown to no one, the player included, before the reveal), so anyone may watch.
extension PhotoQuiz: GameRules {
    public typealias Action = PhotoQuizAction
    public typealias Failure = PhotoQuizError
    public typealias Event = PhotoQuizEvent
    public typealias Environment = PhotoQuizEnvironment

    public var members: [UserID] { players.map(\.id) }

    /// A quiz counts against its host until it is over.
    public var owner: UserID? { phase == .complete ? nil : hostId }

    /// Nobody is playing a finished quiz.
    public var playing: [UserID] { phase == .complete ? [] : members }

    public var stage: GameStage {
        switch phase {
        case .waiting: .waiting
        case .revealing, .revealed: .playing
        case .complete: .finished
        }
    }

    /// Not while a photo is being guessed: a running round ends by itself, and then the quiz may go.
    public var mayExpire: Bool { phase != .revealing }

    public mutating func apply(
        _ action: PhotoQuizAction, by caller: Caller, at now: Instant, in environment: PhotoQuizEnvironment
    ) throws(PhotoQuizError) -> GameOutcome<PhotoQuiz> {
        let wasPlaying = stage == .playing
        let result: ([PhotoQuizEvent], [GameEffect<PhotoQuizAction>])
        switch (action, caller) {
        case (.revealTiles(let round), .clock):
            result = revealTiles(round: round, at: now)
        case (.closeGuesses(let round), .clock):
            result = closeGuesses(round: round, at: now)
        case (.revealTiles, .user), (.closeGuesses, .user):
            throw .invalidState(reason: "Only the server's clock reveals tiles and closes guesses.")
        case (_, .clock):
            throw .invalidState(reason: "The clock fires only a round's timers.")
        case (_, .user(let user)):
            result = try apply(action, by: user, at: now, previews: environment.previews)
        }
        var effects = result.1
        if result.0.contains(.deleted) {
            effects = [.delete]
        } else if wasPlaying, stage == .finished {
            // A session that was played is filed in its players' history (one quit before the start is not).
            effects.append(.archive(GameArchive(key: id, players: members, finishedAt: finishedAt ?? now)))
        }
        return GameOutcome(events: result.0, effects: effects)
    }

    private mutating func apply(
        _ action: PhotoQuizAction, by user: UserID, at now: Instant, previews: any TilePreviewSource
    ) throws(PhotoQuizError) -> ([PhotoQuizEvent], [GameEffect<PhotoQuizAction>]) {
        switch action {
        case .join(let name): return (try join(user, playerName: name), [])
        case .leave: return try leaveDuringSession(user)
        case .addPhoto(let photo): return (try addPhoto(photo, by: user), [])
        case .updateSettings(let settings): return (try updateSettings(settings, by: user), [])
        case .start: return try start(by: user, at: now, previews: previews)
        case .guess(let coordinate): return try guess(coordinate, by: user, at: now)
        case .reveal: return try reveal(by: user)
        case .nextPhoto: return try nextPhoto(by: user, at: now, previews: previews)
        case .quit: return try quit(by: user, at: now)
        case .removePlayer(let player): return try remove(player, by: user)
        case .recordRematch(let code): return (try recordRematch(QuizCode(uncheckedRawValue: code)), [])
        case .handOverHost(let player): return (try handOverHost(to: player, by: user), [])
        case .revealTiles, .closeGuesses: return ([], [])  // The clock's, handled above.
        }
    }

    /// The host removing a player (`PhotoQuiz+Kick`): for them it is leaving.
    private mutating func remove(_ player: UserID, by user: UserID) throws(PhotoQuizError) -> ([PhotoQuizEvent], [GameEffect<PhotoQuizAction>]) {
        try requireHost(user, to: "remove a player")
        guard player != user else { throw .invalidState(reason: "The host cannot remove themselves; leave the quiz instead.") }
        guard isMember(player) else { throw .playerNotFound(id: player.rawValue) }
        guard phase != .complete else { throw .invalidState(reason: "The quiz is over; its standings stay as they are.") }
        let (events, effects) = try leaveDuringSession(player)
        return (events.map { $0 == .left(player) ? .removed(player) : $0 }, effects)
    }

    /// A player leaving; when the others have all guessed the current photo, it is revealed.
    private mutating func leaveDuringSession(_ user: UserID) throws(PhotoQuizError) -> ([PhotoQuizEvent], [GameEffect<PhotoQuizAction>]) {
        var events = try leave(user)
        guard !events.contains(.deleted), phase == .revealing, let round, everyoneGuessed else { return (events, []) }
        let effects = revealRound()
        events.append(.photoRevealed(round: round.number))
        return (events, effects)
    }
}
