/// The one shape of a game's rules: a value with a version, one action type, and one reducer.
///
/// The kernel (`ParlorServer`) hosts any type that conforms: one actor per live game applies
/// actions through `apply`, makes the result durable, publishes `publicView` to every subscriber and
/// `privateView(for:)` to each member alone, and carries out the outcome's effects (timers, deletion,
/// history). Everything game-specific is here and in the game's wire types; nothing here does I/O.
///
/// Rules are pure: no clock (`now` is passed in), no I/O, no randomness that is not injected. Every
/// check runs before anything changes, so a thrown failure leaves the value untouched; an action that
/// changes nothing leaves `version` alone, and one that changes anything raises it by exactly one.
public protocol GameRules: Sendable {
    /// Everything that can be done to a live game, by a player or by a scheduled action firing.
    /// Codable because scheduled actions are stored with the game and fire after a restart.
    associatedtype Action: Sendable, Codable, Equatable
    /// Why an action was refused; the game's wire registration maps it to an error code.
    associatedtype Failure: Error
    /// What an action answers its caller beyond the new state (a word's verdict); `Never` when nothing.
    associatedtype Reply: Sendable = Never
    /// What an applied action changed, for logs and tests.
    associatedtype Event: Sendable
    /// What the rules read from the server around them that is not part of the game (the word list,
    /// the catalog). Values, passed in on every action, so the rules still do no I/O.
    associatedtype Environment: Sendable = Void
    /// What anyone watching the game may see.
    associatedtype PublicView: Sendable
    /// What one member alone may see (their own words); `Never?` for games without secrets.
    associatedtype PrivateView: Sendable = Never?

    /// 1 at creation, +1 for every change.
    var version: Int { get }

    /// The players, in seat order: the game is in use while any of them is connected.
    var members: [UserID] { get }

    /// Whether the game may be deleted for being abandoned right now (a word lobby only between rounds).
    var mayExpire: Bool { get }

    /// Whose quota of live games this game counts against: its creator, or whoever the game passed to
    /// when they left; nil once it no longer counts (a finished game). The default is the first member
    /// (the creator's seat, inherited in seat order).
    var owner: UserID? { get }

    /// Who is playing the game right now, so friends can see where to watch them: the members while the
    /// game goes on, nobody once it is over. The default is `members`.
    var playing: [UserID] { get }

    /// Where the game is in its life: waiting for players, being played, or finished.
    var stage: GameStage { get }

    /// Refuses a would-be observer who may not watch (a word lobby's non-members); nil is someone not
    /// signed in.
    func checkObserver(_ user: UserID?) throws(Failure)

    /// Applies `action`, asked for by `caller` at `now`. Throws, changing nothing, when it is refused.
    mutating func apply(
        _ action: Action, by caller: Caller, at now: Instant, in environment: Environment
    ) throws(Failure) -> GameOutcome<Self>

    var publicView: PublicView { get }

    func privateView(for user: UserID) -> PrivateView
}

extension GameRules {
    public var mayExpire: Bool { true }

    public var owner: UserID? { members.first }

    public var playing: [UserID] { members }

    public func checkObserver(_ user: UserID?) throws(Failure) {}
}

extension GameRules where PrivateView == Never? {
    /// A game without secrets shows nobody anything private.
    public func privateView(for user: UserID) -> Never? { nil }
}
