/// A rematch of a finished room: the same limit, value and seats, in seat order, the same moderator;
/// everyone but the moderator gets ready again.
extension RummyRoom: Rematchable {
    public var rematchCode: String? { rematch?.rawValue }

    public func rematch(by user: UserID, id: String, code: String, at now: Instant) throws(RoomError) -> RummyRoom {
        guard isModerator(user) else { throw .notModerator(action: "start a rematch") }
        guard isFinished else { throw .invalidState(reason: "The game is not over yet; a rematch starts once it is.") }
        guard let moderator else { throw .invalidState(reason: "The room has no moderator.") }
        var next = try RummyRoom.create(
            code: RoomCode(uncheckedRawValue: code), pointLimit: pointLimit, pointValue: pointValue, playerCount: playerCount,
            creator: moderator.id, playerName: moderator.name, at: now)
        for player in players where player.id != moderator.id {
            _ = try next.apply(.join(playerName: player.name), by: player.id, at: now)
        }
        return next
    }

    public static func recordRematch(code: String) -> RummyAction { .recordRematch(code: RoomCode(uncheckedRawValue: code)) }

    mutating func recordRematch(_ code: RoomCode) throws(RoomError) -> [RoomEvent] {
        guard isFinished else { throw .invalidState(reason: "The game is not over yet; a rematch starts once it is.") }
        if let rematch { throw .invalidState(reason: "A rematch was already started: room \(rematch).") }
        rematch = code
        return [.rematchStarted(code)]
    }
}
