/// Recording visits, and replacing the last one (the seed: "game edits allowed only for last turn").
extension DartsMatch {
    /// Records `visit` for `playerId`, whose turn it must be, entered by that player or the host.
    mutating func record(_ visit: VisitInput, for playerId: UserID, by caller: UserID, at now: Instant) throws(DartsError) -> [DartsEvent] {
        try checkPlaying()
        guard let seat = seat(of: playerId) else { throw .playerNotFound(playerId: playerId.rawValue) }
        if let current = currentPlayer, current != seat { throw .notYourTurn(expected: players[current].name) }
        let isTheThrower = caller == playerId && !players[seat].hasLeft
        guard isTheThrower || caller == hostId else { throw .notHost(action: "record another player's visit") }
        let entry = try VisitEntry(darts: visit.darts, total: visit.total)
        return try append(entry, for: seat, by: caller, at: now)
    }

    /// Replaces the last visit of the match with `visit`, scored again from the score before it: a bust,
    /// a checkout, a leg or set won are recomputed, and a leg the old visit won is reopened. Allowed to
    /// whoever recorded it, or the host, while the match is being played; `number` (the visit's number
    /// in the match, from the view) guards against editing a visit that is no longer the last.
    mutating func editLastVisit(number: Int?, _ visit: VisitInput, by caller: UserID, at now: Instant) throws(DartsError) -> [DartsEvent] {
        var edited = self
        let last = try edited.removeLastVisit(number: number, by: caller, doing: "edited")
        let entry = try VisitEntry(darts: visit.darts, total: visit.total)
        let events = try edited.append(entry, for: last.player, by: caller, at: now)
        self = edited
        return events.map { event in
            if case .visitRecorded(let seat, let scored) = event { return .visitEdited(seat: seat, scored) }
            return event
        }
    }

    /// Takes the last visit of the match back, as if it had not been thrown (a leg it won reopens), on
    /// the same terms as editing it.
    mutating func undoLastVisit(number: Int?, by caller: UserID) throws(DartsError) -> [DartsEvent] {
        let last = try removeLastVisit(number: number, by: caller, doing: "undone")
        return [.visitUndone(seat: last.player)]
    }

    /// Removes the last visit, after the checks editing and undoing share: the match is being played,
    /// `number` (when given) is the last visit's, and the caller recorded it or is the host.
    private mutating func removeLastVisit(number: Int?, by caller: UserID, doing verb: String) throws(DartsError) -> DartsVisit {
        switch status {
        case .waiting: throw .invalidState(reason: "No visit has been recorded yet.")
        case .finished: throw .invalidState(reason: "Match \(code) is finished and filed; its visits can no longer be \(verb).")
        case .playing: break
        }
        guard let last = lastVisit else { throw .invalidState(reason: "No visit has been recorded yet.") }
        let lastNumber = visitCount
        if let number, number != lastNumber {
            throw .invalidState(reason: "Only the last visit (#\(lastNumber)) can be \(verb); visit #\(number) is final.")
        }
        guard caller == last.recordedBy || caller == hostId else {
            throw .notHost(action: verb == "edited" ? "edit a visit someone else recorded" : "undo a visit someone else recorded")
        }
        // The visit won a leg: the next leg had begun without a visit; it goes, and the leg reopens.
        if legs.count > 1, legs[legs.count - 1].visits.isEmpty { legs.removeLast() }
        let legIndex = legs.count - 1
        legs[legIndex].visits.removeLast()
        legs[legIndex].winner = nil
        return last
    }

    /// Scores `entry` for `seat` from where it stands, appends it to the current leg, and settles the
    /// leg, set and match it may win.
    private mutating func append(_ entry: VisitEntry, for seat: Int, by caller: UserID, at now: Instant) throws(DartsError) -> [DartsEvent] {
        let scored = try settings.score(entry, from: remaining(of: seat), opened: hasOpened(seat))
        let legIndex = legs.count - 1
        legs[legIndex].visits.append(DartsVisit(player: seat, recordedBy: caller, scored: scored))
        var events: [DartsEvent] = [.visitRecorded(seat: seat, scored)]
        guard scored.isCheckout else { return events }
        legs[legIndex].winner = seat
        events.append(.legWon(seat: seat))
        let leg = legs[legIndex]
        if legsWon(by: seat) < settings.legs {
            startLeg(set: leg.set, number: leg.number + 1)
        } else if let sets = settings.sets {
            events.append(.setWon(seat: seat))
            if setsWon(by: seat) < sets {
                startLeg(set: leg.set + 1, number: 1)
            } else {
                finish(winner: seat, at: now)
                events.append(.matchWon(seat: seat))
            }
        } else {
            finish(winner: seat, at: now)
            events.append(.matchWon(seat: seat))
        }
        return events
    }

    /// The next leg, started by the next seat in turn.
    private mutating func startLeg(set: Int, number: Int) {
        legs.append(DartsLeg(set: set, number: number, starter: legs.count % players.count))
    }

    private mutating func finish(winner seat: Int, at now: Instant) {
        status = .finished
        winner = seat
        finishedAt = now
    }

    private func checkPlaying() throws(DartsError) {
        switch status {
        case .waiting: throw .invalidState(reason: "Match \(code) has not started yet.")
        case .finished: throw .invalidState(reason: "Match \(code) is finished.")
        case .playing: return
        }
    }
}
