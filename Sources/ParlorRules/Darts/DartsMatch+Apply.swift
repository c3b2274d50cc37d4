/// The darts reducer: seats and the start. Visits are in `DartsMatch+Visits`.
///
/// Decisions the seed leaves open:
/// - Joining a match one already sits in changes nothing; one who left during play takes the seat back.
/// - Seats change only while the match is waiting. Leaving then frees the seat; leaving once it has
///   started keeps the seat (the turn order and the statistics need it) for the host to score.
/// - The host is always an account player at the match: when the host leaves, the next account player
///   in seat order becomes host; when none is left, the match is deleted (a finished one stays in
///   history).
/// - Every check runs before anything changes, so a thrown error leaves the match untouched.
extension DartsMatch {
    public mutating func apply(_ action: DartsAction, by caller: UserID, at now: Instant) throws(DartsError) -> [DartsEvent] {
        let events: [DartsEvent]
        switch action {
        case .join(let playerName): events = try join(caller, playerName: playerName)
        case .addGuest(let name, let id): events = try addGuest(name: name, id: id, by: caller)
        case .removePlayer(let playerId): events = try remove(playerId, by: caller)
        case .start: events = try start(by: caller, at: now)
        case .leave: events = try leave(caller)
        case .recordVisit(let playerId, let visit): events = try record(visit, for: playerId, by: caller, at: now)
        case .editLastVisit(let number, let visit): events = try editLastVisit(number: number, visit, by: caller, at: now)
        case .undoLastVisit(let number): events = try undoLastVisit(number: number, by: caller)
        case .recordRematch(let code): events = try recordRematch(MatchCode(uncheckedRawValue: code))
        case .handOverHost(let user): events = try handOverHost(to: user, by: caller)
        }
        if !events.isEmpty && !events.contains(.deleted) { version += 1 }
        return events
    }

    private mutating func join(_ caller: UserID, playerName: String) throws(DartsError) -> [DartsEvent] {
        if let seat = seat(of: caller) {
            guard players[seat].hasLeft else { return [] }
            players[seat].hasLeft = false
            return [.rejoined(caller)]
        }
        try checkWaiting("new players can no longer join")
        try checkRoom()
        let name = try Self.validName(playerName, field: "playerName")
        players.append(DartsPlayer(id: caller, name: name, isGuest: false))
        return [.joined(caller)]
    }

    private mutating func addGuest(name: String, id: UserID, by caller: UserID) throws(DartsError) -> [DartsEvent] {
        guard caller == hostId else { throw .notHost(action: "add a guest") }
        try checkWaiting("guests can no longer be added")
        try checkRoom()
        let name = try Self.validName(name, field: "name")
        guard seat(of: id) == nil else { throw .invalidState(reason: "That guest id is already taken; try again.") }
        players.append(DartsPlayer(id: id, name: name, isGuest: true))
        return [.guestAdded(id)]
    }

    private mutating func remove(_ playerId: UserID, by caller: UserID) throws(DartsError) -> [DartsEvent] {
        guard let seat = seat(of: playerId) else { throw .playerNotFound(playerId: playerId.rawValue) }
        guard caller == hostId else { throw .notHost(action: "remove a player") }
        guard playerId != hostId else { throw .invalidState(reason: "The host cannot remove themselves; leave the match instead.") }
        try checkWaiting("players can no longer be removed")
        players.remove(at: seat)
        return [.removed(playerId)]
    }

    private mutating func start(by caller: UserID, at now: Instant) throws(DartsError) -> [DartsEvent] {
        guard caller == hostId else { throw .notHost(action: "start the match") }
        try checkWaiting("it cannot start again")
        status = .playing
        startedAt = now
        legs = [DartsLeg(set: 1, number: 1, starter: 0)]
        return [.started]
    }

    private mutating func leave(_ caller: UserID) throws(DartsError) -> [DartsEvent] {
        guard let seat = seat(of: caller), !players[seat].hasLeft else { throw .playerNotFound(playerId: caller.rawValue) }
        if status == .waiting {
            players.remove(at: seat)
        } else {
            players[seat].hasLeft = true
        }
        var events: [DartsEvent] = [.left(caller)]
        if caller == hostId {
            guard let next = accountPlayers.first else { return [.deleted] }
            hostId = next
            events.append(.hostChanged(next))
        }
        return events
    }

    func checkWaiting(_ consequence: String) throws(DartsError) {
        switch status {
        case .waiting: return
        case .playing: throw .invalidState(reason: "Match \(code) has started; \(consequence).")
        case .finished: throw .invalidState(reason: "Match \(code) is finished; \(consequence).")
        }
    }

    private func checkRoom() throws(DartsError) {
        guard players.count < settings.capacity else { throw .matchFull(capacity: settings.capacity) }
    }
}
