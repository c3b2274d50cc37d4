/// A game whose host can hand the role to another member (`transferHost`): a darts match's or quiz's
/// host, a rummy room's moderator, a word lobby's creator. The kernel first checks that the caller is
/// the host (`GameRules.owner`, else `NOT_HOST`) and the new host a member (else `PLAYER_NOT_FOUND`),
/// then applies the game's action, which moves the role — and with it who may start, kick, lock,
/// unlock and invite — and shows it in the game's view. The rules check both again themselves.
public protocol HostHandover: GameRules {
    /// The action by which the host makes `user` the host.
    static func handOverHost(to user: UserID) -> Action
}
