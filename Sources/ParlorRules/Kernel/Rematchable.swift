/// A game whose players can play again: the moderator starts a new game with the same seats, and the
/// old game records where everyone went (its view carries the new code), so every client following it
/// follows on by itself. The kernel's `GameHost.rematch` does the rest for any game that conforms.
public protocol Rematchable: GameRules {
    /// The new game's code, once a rematch was started from this one.
    var rematchCode: String? { get }

    /// The new game for a rematch asked by `user` at `now`: the same seats (names, colours) with fresh
    /// scores, under `id` and `code`. Throws when `user` may not start one (not the moderator) or it is
    /// too early (the game is not over).
    func rematch(by user: UserID, id: String, code: String, at now: Instant) throws(Failure) -> Self

    /// The action that records, in this game, that its rematch is `code` (once; a second is refused).
    static func recordRematch(code: String) -> Action
}
