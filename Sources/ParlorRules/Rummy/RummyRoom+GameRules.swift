/// A rummy room on the game kernel: players' actions only, nothing scheduled, nothing private.
extension RummyRoom: GameRules {
    public typealias Action = RummyAction
    public typealias Failure = RoomError
    public typealias Event = RoomEvent

    public var members: [UserID] { players.map(\.id) }

    /// The moderator's seat (the creator's, then its heir's) until the game is over.
    public var owner: UserID? { isFinished ? nil : players.first?.id }

    public var stage: GameStage { isFinished ? .finished : isStarted ? .playing : .waiting }

    /// The last player leaving deletes the room; the game finishing files it in every player's history.
    public mutating func apply(
        _ action: RummyAction, by caller: Caller, at now: Instant, in _: Void
    ) throws(RoomError) -> GameOutcome<RummyRoom> {
        guard let user = caller.user else {
            throw .invalidState(reason: "Rooms schedule nothing, so nothing can fire on their behalf.")
        }
        let wasFinished = isFinished
        let events = try apply(action, by: user, at: now)
        var outcome = GameOutcome<RummyRoom>(events: events)
        if events.contains(.roomDeleted) {
            outcome.effects.append(.delete)
        } else if isFinished && !wasFinished {
            outcome.effects.append(.archive(GameArchive(
                key: historyKey, players: members, finishedAt: finishedAt ?? now)))
        }
        return outcome
    }

    /// Everything in a room is public: the seed lets anyone read a room.
    public var publicView: RummyRoom { self }

    /// Names this game in history: a code is reused by later rooms, its creation time is not.
    public var historyKey: String { "\(id.rawValue)@\(createdAt.millisecondsSinceEpoch)" }
}
