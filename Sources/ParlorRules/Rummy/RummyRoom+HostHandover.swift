/// The moderator hands the room to another player (`HostHandover`): only the moderator, to a player of
/// the room, who takes the first seat — the room's moderator sits first (and inherits it when the
/// moderator leaves) — and is ready, as a moderator always is.
extension RummyRoom: HostHandover {
    public static func handOverHost(to user: UserID) -> RummyAction { .handOverHost(to: user) }

    mutating func handOverHost(to player: UserID, by caller: UserID) throws(RoomError) -> [RoomEvent] {
        guard isModerator(caller) else { throw .notModerator(action: "hand the room over") }
        guard let index = players.firstIndex(where: { $0.id == player }) else { throw .playerNotFound(playerId: player.rawValue) }
        guard index != 0 else { return [] }
        var moderator = players.remove(at: index)
        moderator.isModerator = true
        moderator.isReady = true
        players[0].isModerator = false
        players.insert(moderator, at: 0)
        return [.moderatorChanged(to: player)]
    }
}
