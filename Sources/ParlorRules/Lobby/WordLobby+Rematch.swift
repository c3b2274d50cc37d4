/// A rematch of a finished match: the same seats and profiles in seat order, the same creator, seats
/// and match length.
extension WordLobby: Rematchable {
    public var rematchCode: String? { rematch?.rawValue }

    public func rematch(by user: UserID, id: String, code: String, at now: Instant) throws(LobbyError) -> WordLobby {
        guard user == creator else {
            throw isMember(user) ? .permissionDenied(.notCreator(action: "start a rematch")) : .permissionDenied(.notMember)
        }
        guard status == .finished else { throw .failedPrecondition(.matchNotFinished) }
        guard let host = player(creator) else { throw .permissionDenied(.notMember) }
        var next = try WordLobby.create(
            lobbyId: id, code: LobbyCode(uncheckedRawValue: code), creator: creator, profile: host.profile, capacity: capacity,
            rounds: rounds ?? WordRules.defaultRounds, at: now)
        for player in players where player.userId != creator {
            _ = try next.join(player.userId, profile: player.profile)
        }
        return next
    }

    public static func recordRematch(code: String) -> WordLobbyAction { .recordRematch(code: LobbyCode(uncheckedRawValue: code)) }

    mutating func recordRematch(_ code: LobbyCode, by caller: UserID) throws(LobbyError) -> [LobbyEvent] {
        guard caller == creator else { throw .permissionDenied(.notCreator(action: "start a rematch")) }
        guard status == .finished else { throw .failedPrecondition(.matchNotFinished) }
        if let rematch { throw .failedPrecondition(.rematchStarted(rematch)) }
        rematch = code
        version += 1
        return [.rematchStarted(code)]
    }
}
