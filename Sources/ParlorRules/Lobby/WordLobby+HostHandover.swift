/// The creator hands the lobby to another player (`HostHandover`): only the creator, to a player of the
/// lobby, who then starts its rounds.
extension WordLobby: HostHandover {
    public static func handOverHost(to user: UserID) -> WordLobbyAction { .handOverHost(to: user) }

    mutating func handOverHost(to player: UserID, by caller: UserID) throws(LobbyError) -> [LobbyEvent] {
        guard caller == creator else {
            throw isMember(caller) ? .permissionDenied(.notCreator(action: "hand the lobby over")) : .permissionDenied(.notMember)
        }
        guard player != creator else { return [] }
        guard isMember(player) else { throw .notFound(.player(player)) }
        creator = player
        version += 1
        return [.creatorChanged(to: player)]
    }
}
