/// The creator takes a seat away (`Kickable`, `WordLobby+Remove`; `removeLobbyPlayer` on the wire).
///
/// Decisions:
/// - Only the creator, at any time, but not themselves (they leave instead).
/// - For the removed player it is leaving: their words of a running round go, their points with their
///   seat, and their streams end, since a lobby's stream carries a member's own words.
extension WordLobby: Kickable {
    public static func kick(_ player: UserID) -> WordLobbyAction { .remove(player) }
}
