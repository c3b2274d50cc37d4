/// The host removes a player from a match (`Kickable`; `removePlayer` on the wire).
///
/// Decisions:
/// - Only the host, and only while the match waits for its start: once darts are thrown, a seat holds
///   scores the other players' legs were played against, so a player who goes home leaves the match
///   themselves (their seat stays, marked as left). Removing then is INVALID_STATE.
/// - Guests too: the host added them and scores for them.
/// - The host does not remove themselves; they leave the match (and pass it on) instead.
extension DartsMatch: Kickable {
    public static func kick(_ player: UserID) -> DartsAction { .removePlayer(playerId: player) }
}
