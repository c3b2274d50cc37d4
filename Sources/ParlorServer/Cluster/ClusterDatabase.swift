import ParlorRules

/// What a node of a cluster needs from the database the nodes share: its membership (join, beat,
/// leave), where each game is served (claim, release, the games served here, the orphans), the
/// announcements it hears and which of them it asks for, and who is connected where.
///
/// `PostgresStore` is the one there is, and it is built only with the package's `PostgreSQL` trait
/// (`swift build --traits PostgreSQL`). The kernel's cluster code (`ClusterNode`, `GameHost+Cluster`,
/// `GameActor+Cluster`) talks to the database through this protocol only, so it is compiled — and
/// type-checked — in every build, and a default build simply never has a node to run it.
protocol ClusterDatabase: Sendable {
    /// This node's name, as the front routes by it (`--node-name`).
    var node: String { get }

    /// Takes this node's name for this run (`incarnation`); fails while another process beating under
    /// the same name is alive.
    func join(incarnation: String, deadAfter: Duration) async throws(StoreError)
    /// Records that this node is alive (draining or not) and reads which nodes are; `stillMine` is
    /// false when another process took this node's name meanwhile.
    func beat(incarnation: String, draining: Bool, deadAfter: Duration) async throws(StoreError) -> (peers: [ClusterPeer], stillMine: Bool)
    /// This node stopped: the others need not wait for its beat to go stale.
    func leave(incarnation: String) async

    /// The watch buckets the other nodes listen to, as this node's last beat read them: a committed
    /// version is announced on its bucket only when one of them does.
    func recordWatchedElsewhere(_ buckets: Set<Int>)
    /// Records the watch buckets this node listens to, and waits (at most `timeout`) until every other
    /// node beating has read them; false when the database could not be asked or a node was late.
    func recordWatching(_ buckets: Set<Int>, incarnation: String, beating: Duration, timeout: Duration) async -> Bool
    /// Hears exactly these watch buckets from now on (beside the channels every node hears).
    func watch(_ buckets: Set<Int>) async
    /// Hears the cluster's announcements until the calling task is cancelled.
    func listen(_ events: ClusterEvents) async

    /// Makes this node the one that serves game `id` of `kind`, if it is still served by `seen` (nil:
    /// by none).
    func claimGame(_ kind: String, id: String, seen: String?) async throws(StoreError) -> DatabaseClaim
    /// Lets go of every game this node serves (it is draining); returns how many there were.
    func releaseGames() async throws(StoreError) -> Int
    /// The games of `kind` this node serves (its own after a restart; none on a new node).
    func gamesServedHere(_ kind: GameKind) async throws(StoreError) -> [StoredGame]
    /// Games no live node serves that have not changed since `cutoff`: at most `limit`, oldest first.
    func orphanedGames(servedBy live: [String], unchangedSince cutoff: Instant, limit: Int) async throws(StoreError) -> [(kind: String, id: String)]
    /// Games with a scheduled action due before `cutoff`: at most `limit`, the most overdue first.
    func overdueGames(dueBefore cutoff: Instant, limit: Int) async throws(StoreError) -> [(kind: String, id: String)]
    /// Records who is connected to this node now, so that the other nodes do not expire their games.
    func reportConnected(_ users: [UserID], at now: Instant) async throws(StoreError)
}

/// A node as the others see it.
struct ClusterPeer: Sendable, Equatable {
    var name: String
    /// Draining: it serves what it has until its clients are gone, and takes nothing new.
    var isDraining: Bool
    /// The watch buckets it listens to.
    var watching: [Int] = []
}

/// How a claim went in the database: the game is now served by `node` (this node when the claim took;
/// else whoever serves it, nil if nobody — try again), or it is gone.
enum DatabaseClaim: Sendable, Equatable {
    case servedBy(String?)
    case gone
}

/// What a node hears from the others (see `ClusterChannel`).
struct ClusterEvents: Sendable {
    /// Another node committed a version of a game this node serves or watches (or deleted it).
    var changed: @Sendable (GameChange) async -> Void
    /// Another node took a game, let its games go, or deleted a game.
    var home: @Sendable (HomeChange) async -> Void
    /// Listening again after the connection was lost: announcements made meanwhile are lost, so every
    /// game this node serves or watches should be read afresh.
    var resumed: @Sendable () async -> Void
}
