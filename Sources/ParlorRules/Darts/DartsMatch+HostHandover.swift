/// The host hands the match to another account player (`HostHandover`): only the host, to a player
/// still at the match who is not a guest (a guest cannot sign in to score for anyone).
extension DartsMatch: HostHandover {
    public static func handOverHost(to user: UserID) -> DartsAction { .handOverHost(to: user) }

    mutating func handOverHost(to user: UserID, by caller: UserID) throws(DartsError) -> [DartsEvent] {
        guard caller == hostId else { throw .notHost(action: "hand the match over") }
        guard user != hostId else { return [] }
        guard accountPlayers.contains(user) else { throw .playerNotFound(playerId: user.rawValue) }
        hostId = user
        return [.hostChanged(user)]
    }
}
