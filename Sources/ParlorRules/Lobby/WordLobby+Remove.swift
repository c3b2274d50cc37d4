/// The creator takes a seat away: someone who went home with their seat still taken, or should not be
/// there. For the removed player it is leaving — their words of a running round go, their streams end.
extension WordLobby {
    public mutating func remove(_ player: UserID, by caller: UserID) throws(LobbyError) -> [LobbyEvent] {
        guard caller == creator else {
            throw isMember(caller) ? .permissionDenied(.notCreator(action: "remove a player")) : .permissionDenied(.notMember)
        }
        guard player != caller else {
            throw .invalidArgument(field: "userId", reason: "You cannot remove yourself; leave the lobby instead.")
        }
        guard isMember(player) else { throw .notFound(.player(player)) }
        return try leave(player)
    }
}
