/// The moderator removes a player from a room (`Kickable`; `leaveRoom` with another player's id on the
/// wire).
///
/// Decisions:
/// - Only the moderator (NOT_MODERATOR for anyone else), at any time: the scores are written on paper
///   at the table and only entered here, so a player who went home takes their seat and their entered
///   scores with them, and the standings and debts are worked out among those who stay.
/// - Removing oneself is leaving (the same action with one's own id); the moderator's seat then
///   passes to the next player.
extension RummyRoom: Kickable {
    public static func kick(_ player: UserID) -> RummyAction { .leave(playerId: player) }
}
