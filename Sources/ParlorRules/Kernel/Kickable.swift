/// A game whose host (rummy's moderator, a word lobby's creator) can take a player out: someone who
/// went home with their seat still taken, or a stranger who came in through a shared link. The kernel's
/// `GameHost.kick` applies the game's kick action as the caller and, when the rules no longer let the
/// kicked player watch (a game with secrets), ends their streams.
///
/// The action is the game's own, so the game decides everything else, and says so beside its
/// conformance: who may kick (anyone but the host is refused, with the game's "not the host" failure),
/// that an unknown player is a typed not-found failure, when a kick is refused (the game's "invalid
/// state"), and what becomes of the kicked player's seat, score and turn.
public protocol Kickable: GameRules {
    /// The action by which the caller removes `player` from the game.
    static func kick(_ player: UserID) -> Action
}
