import Logging
import ParlorRules
import ParlorWire

/// What the kernel offers a game when the server starts: the store, the clock, the timers, and the
/// server's configuration.
struct Kernel: Sendable {
    let configuration: ServerConfiguration
    let store: any ParlorStore
    let clock: any ParlorClock
    let logger: Logger
    let timers: GameTimers
    /// Live games per owner, across every kind.
    let quota: GameQuota
    /// Who is online, and who plays which live game (hosts report it).
    let presence: Presence
    /// Reloads counted for `/metrics` (none in tests that build a kernel of their own).
    var cluster: ClusterMetrics? = nil
    /// This node of a cluster (`--postgres`); nil on a node of its own.
    var node: ClusterNode? = nil
    /// Signs and checks invitations to private games (with the server's secret).
    var invites = GameInvites.ephemeral()

    /// The shared database when this node runs on PostgreSQL (`--postgres`): uploaded files go there
    /// too, so that any node serves what another received.
    #if PostgreSQL
    var sharedDatabase: PostgresStore? { store.backend.sharedDatabase }
    #endif
}

/// A kind of game as the server hosts it: everything the kernel does to all games of all kinds
/// without knowing which (restore them, count them, expire the abandoned ones).
protocol HostedGame: Sendable {
    var kind: GameKind { get }
    /// Live games.
    var count: Int { get }
    /// Live games per stage (waiting, playing, finished).
    var countsByStage: [GameStage: Int] { get }
    /// Subscriptions to those games.
    var subscriberCount: Int { get }
    /// `user`'s finished games of this kind that it lists, newest first: at most `limit`, finished
    /// before `before`.
    func playedGames(of user: UserID, before: Instant?, limit: Int) async throws(WireError) -> [PlayedGame]
    /// The live game of this kind with `code`, as the access operations reach it (`GameAccessOperations`);
    /// nil when this kind has none (or cannot have one: a code of another shape).
    func accessible(code: String) async throws(WireError) -> (any AccessibleGame)?
    /// Brings back every stored game of this kind (at start-up).
    func restore() async throws
    /// Deletes the games nobody in them is connected to and that have not changed since the cutoff
    /// for their kind of abandonment, where their rules allow it; returns how many went.
    func expireAbandoned(_ cutoffs: ExpiryCutoffs, presence: Presence) async -> Int
    /// Up to `limit` live games, for the operator's page.
    func adminGames(limit: Int, presence: Presence) async -> [AdminViews.Game]
    /// One live game by code, and its public view.
    func adminGame(code: String, presence: Presence) async throws(WireError) -> (AdminViews.Game, EncodedJSON)
    /// The operator closes a game: its members hear why, then it is deleted.
    func close(code: String, reason: String) async throws(WireError)
    /// The kind's host as its records are replayed through (`GameRecordReplay.swift`; every `GameHost`
    /// is one, and a wrapper gives its host).
    var recordReplaying: (any RecordReplaying)? { get }

    /// Another node committed a version of a game: if this node has subscribers for it, it takes the
    /// version from the announcement (or reads the game) and publishes it to them.
    func changedElsewhere(_ change: GameChange)
    /// Another node took a game, let its games go, or deleted a game.
    func homeChanged(_ change: HomeChange) async
    /// After a heartbeat: takes on the watched games whose node stopped serving; returns the watch
    /// buckets of the games watched here that another node serves.
    func reviewHomes() async -> Set<Int>
    /// Drops the copies of games other nodes serve that nobody here watched or used for `idle`;
    /// returns how many.
    func evictIdleCopies(idle: Duration) async -> Int
    /// Games held here and their subscriptions, by whether this node serves them.
    var servedCounts: ServedCounts { get }

    /// Reads afresh every game this node has subscribers for (announcements may have been missed).
    func refreshWatched() async
    /// Game `id` has a scheduled action overdue in the database (the node that would have fired it
    /// died): reads the game — taking it on when this node does not hold it — and arms its timers,
    /// which fire at once. Several nodes doing so at once is safe: one saves, the others lose the race.
    func takeOverdue(id: String) async
}

/// A game the server can host: at start-up it builds its host on the kernel (reading what it needs from
/// the store first, if anything) and says which operations and HTTP routes it answers. Adding a game is
/// adding a module to `ParlorGames.standard`.
protocol GameModule: Sendable {
    func register(in kernel: Kernel) async throws -> GameRegistration
}

/// A game's contribution to the server: its host, its entries in the operation table, its REST routes,
/// the feeds it serves beside its games', the work it runs in the background while the server runs,
/// and — for the game whose app has profiles (darts) — each player's lifetime statistics.
struct GameRegistration: Sendable {
    let game: any HostedGame
    let operations: [OperationEntry]
    let routes: [HTTPRoute]
    /// Feeds of the game's own that are not one game's (counted among the server's subscriptions).
    let feeds: [Feed]
    /// Each runs until the calling task is cancelled, as the server's timers do (a poll of the store).
    let background: [BackgroundWork]
    let profileStats: ProfileStatsSource?

    init(
        game: any HostedGame, operations: [OperationEntry], routes: [HTTPRoute] = [], feeds: [Feed] = [],
        background: [BackgroundWork] = [], profileStats: ProfileStatsSource? = nil
    ) {
        self.game = game
        self.operations = operations
        self.routes = routes
        self.feeds = feeds
        self.background = background
        self.profileStats = profileStats
    }
}

/// Work a game runs while the server runs; it returns when the calling task is cancelled.
typealias BackgroundWork = @Sendable () async -> Void

/// A user's lifetime statistics, as their profile shows them.
typealias ProfileStatsSource = @Sendable (UserID) async throws(WireError) -> ProfileStats

/// When an abandoned game may go: one that nobody joined (at most one member: its creator) soon, any
/// other after a long quiet.
struct ExpiryCutoffs: Sendable {
    /// A game with members besides its creator, unchanged since then.
    var unchangedSince: Instant
    /// A game with at most one member, unchanged since then (later than `unchangedSince`).
    var unjoinedSince: Instant

    /// The cutoff that applies to a game with `memberCount` members.
    func cutoff(forMembers memberCount: Int) -> Instant {
        memberCount <= 1 ? max(unjoinedSince, unchangedSince) : unchangedSince
    }
}
