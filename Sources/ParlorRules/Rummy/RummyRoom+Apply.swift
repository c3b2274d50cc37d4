/// The rummy reducer.
///
/// Decisions the seed leaves open:
/// - Joining a room one already sits in returns no events (the existing seat, name unchanged).
/// - For `setReady` and `leave` the target player is looked up first: an unknown id is
///   `playerNotFound`. Acting on someone else's seat then needs the moderator; a caller who is not in
///   the room is never the moderator, so that is `notModerator`.
/// - The moderator is always ready: un-readying them is `invalidState`. Ready flags are locked once
///   the game starts.
/// - Leaving is allowed at any time, also mid-game (the seat and its scores go); results of a finished
///   game are kept as they were at the finish.
/// - Every check runs before anything changes, so a thrown error leaves the room untouched.
extension RummyRoom {
    public mutating func apply(_ action: RummyAction, by caller: UserID, at now: Instant) throws(RoomError) -> [RoomEvent] {
        let events: [RoomEvent]
        switch action {
        case .join(let playerName):
            events = try join(caller, playerName: playerName)
        case .setReady(let playerId, let ready):
            events = try setReady(playerId, ready: ready, by: caller)
        case .startGame:
            events = try startGame(by: caller)
        case .leave(let playerId):
            events = try leave(playerId, by: caller)
        case .submitScore(let playerId, let round, let score):
            events = try submitScore(playerId, round: round, score: score, by: caller)
        case .nextRound:
            events = try nextRound(by: caller, at: now)
        case .recordRematch(let code):
            guard isModerator(caller) else { throw .notModerator(action: "start a rematch") }
            events = try recordRematch(code)
        case .handOverHost(let player):
            events = try handOverHost(to: player, by: caller)
        }
        if !events.isEmpty { version += 1 }
        return events
    }

    private mutating func join(_ caller: UserID, playerName: String) throws(RoomError) -> [RoomEvent] {
        if isMember(caller) { return [] }
        guard !isStarted else {
            throw .invalidState(reason: "Room \(id) has already started; new players can no longer join.")
        }
        guard players.count < playerCount else { throw .roomFull(code: id, capacity: playerCount) }
        let name = try Self.validName(playerName)
        players.append(RummyPlayer(id: caller, name: name, isReady: false, isModerator: false))
        return [.playerJoined(caller)]
    }

    private mutating func setReady(_ playerId: UserID, ready: Bool, by caller: UserID) throws(RoomError) -> [RoomEvent] {
        let index = try seat(of: playerId)
        guard playerId == caller || isModerator(caller) else {
            throw .notModerator(action: "change another player's ready state")
        }
        guard !isStarted else { throw .invalidState(reason: "The game has already started; ready states are locked.") }
        if players[index].isModerator && !ready {
            throw .invalidState(reason: "The moderator is always ready.")
        }
        if players[index].isReady == ready { return [] }
        players[index].isReady = ready
        return [.readyChanged(playerId, isReady: ready)]
    }

    private mutating func startGame(by caller: UserID) throws(RoomError) -> [RoomEvent] {
        guard isModerator(caller) else { throw .notModerator(action: "start the game") }
        guard !isStarted else { throw .invalidState(reason: "The game has already started.") }
        guard players.count >= RummyRules.minPlayersToStart else {
            throw .invalidState(
                reason: "At least \(RummyRules.minPlayersToStart) players are needed to start (the room has \(players.count)).")
        }
        let waitingFor = players.filter { !$0.isReady }.map(\.name)
        guard waitingFor.isEmpty else {
            throw .invalidState(reason: "Not all players are ready; waiting for \(waitingFor.joined(separator: ", ")).")
        }
        isStarted = true
        for index in players.indices {
            players[index].scores = Array(repeating: 0, count: RummyRules.roundCount)
            players[index].entered = Array(repeating: false, count: RummyRules.roundCount)
        }
        return [.gameStarted]
    }

    private mutating func leave(_ playerId: UserID, by caller: UserID) throws(RoomError) -> [RoomEvent] {
        let index = try seat(of: playerId)
        guard playerId == caller || isModerator(caller) else { throw .notModerator(action: "remove another player") }
        let wasModerator = players[index].isModerator
        players.remove(at: index)
        var events: [RoomEvent] = [.playerLeft(playerId, kickedBy: playerId == caller ? nil : caller)]
        guard let heir = players.first else {
            events.append(.roomDeleted)
            return events
        }
        if wasModerator {
            players[0].isModerator = true
            players[0].isReady = true
            events.append(.moderatorChanged(to: heir.id))
        }
        return events
    }

    private mutating func submitScore(
        _ playerId: UserID, round: Int, score: Int, by caller: UserID
    ) throws(RoomError) -> [RoomEvent] {
        guard isStarted else { throw .invalidState(reason: "The game has not started yet; scores open at the start.") }
        guard !isFinished else { throw .invalidState(reason: "The game is over; scores can no longer change.") }
        let index = try seat(of: playerId)
        guard playerId == caller || isModerator(caller) else {
            throw .notModerator(action: "enter another player's score")
        }
        guard round >= 1, round <= currentRound else {
            throw .invalidInput(field: "round", reason: "round must be between 1 and \(currentRound) (got \(round)).")
        }
        guard (0...RummyRules.maxRoundScore).contains(score) else {
            throw .invalidInput(
                field: "score", reason: "score must be between 0 and \(RummyRules.maxRoundScore) (got \(score)).")
        }
        if players[index].scores.count < RummyRules.roundCount {
            players[index].scores += Array(repeating: 0, count: RummyRules.roundCount - players[index].scores.count)
        }
        if players[index].entered.count < RummyRules.roundCount {
            players[index].entered += Array(repeating: false, count: RummyRules.roundCount - players[index].entered.count)
        }
        if players[index].scores[round - 1] == score, players[index].entered[round - 1] { return [] }
        players[index].scores[round - 1] = score
        players[index].entered[round - 1] = true
        return [.scoreSubmitted(playerId, round: round, score: score)]
    }

    private mutating func nextRound(by caller: UserID, at now: Instant) throws(RoomError) -> [RoomEvent] {
        guard isModerator(caller) else { throw .notModerator(action: "advance to the next round") }
        guard isStarted else { throw .invalidState(reason: "The game has not started yet.") }
        guard !isFinished else { throw .invalidState(reason: "The game is already over.") }
        let limitReached = players.contains { $0.totalScore >= pointLimit }
        guard limitReached || currentRound >= RummyRules.roundCount,
              let results = RummyResults(players: players, pointValue: pointValue)
        else {
            currentRound += 1
            return [.roundAdvanced(to: currentRound)]
        }
        isFinished = true
        finishedAt = now
        self.results = results
        return [.gameFinished(results)]
    }

    private func seat(of playerId: UserID) throws(RoomError) -> Int {
        guard let index = players.firstIndex(where: { $0.id == playerId }) else {
            throw .playerNotFound(playerId: playerId.rawValue)
        }
        return index
    }
}
