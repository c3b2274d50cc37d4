import ParlorRules

/// Where Parlor's state lives beneath the actors: every live game of every kind, finished-game
/// history, the catalog and the secret that signs session tokens.
///
/// The store never names a game: a game is a row of its kind (`GameKind`), with its id, its code, its
/// version, its state in the game's own stored form and its scheduled actions. The actors own the live
/// state; the store makes it last. An operation's reply goes out only after the store has committed
/// its change, so every method that writes returns only once the write is durable. Implementations
/// batch concurrent writes from different games into one commit (group commit) so durability does not
/// cap throughput.
///
/// The writes are `nonisolated(nonsending)`: they run on the calling game's actor up to the point
/// where they wait for the disk, and resume straight onto it, instead of hopping to the global
/// executor and back around every save.
///
/// A shared database for several nodes can implement this protocol without touching the actors.
public protocol ParlorStore: Sendable {
    /// The secret that signs session tokens: created on first start, the same ever after.
    func serverSecret() async throws(StoreError) -> [UInt8]

    // MARK: Games

    /// Every game of `kind` that was live when the server last stopped (or crashed).
    func loadGames(_ kind: GameKind) async throws(StoreError) -> [StoredGame]

    /// Makes this version of the game, and its scheduled actions, durable. When `game.archive` is set
    /// the game is also filed, as this version, in the history of the archive's players, in the same
    /// transaction (once: a second archive with the same key is ignored).
    nonisolated(nonsending) func saveGame(_ game: StoredGame) async throws(StoreError)

    /// Removes a live game (its last player left, or it expired). History is kept.
    nonisolated(nonsending) func deleteGame(_ kind: GameKind, id: String) async throws(StoreError)

    /// The finished games of `kind` in `user`'s history, newest first, finished strictly before
    /// `before` when given; at most `limit` (at least one).
    func history(_ kind: GameKind, of user: UserID, before: Instant?, limit: Int) async throws(StoreError) -> [StoredState]

    // MARK: Catalog

    /// The newest stored catalog, or nil when none was ever stored.
    func loadCatalog() async throws(StoreError) -> Catalog?

    /// Stores a catalog as the newest version.
    nonisolated(nonsending) func saveCatalog(_ catalog: Catalog) async throws(StoreError)

    // MARK: Health

    /// Makes one small write durable, to learn whether the store can write now (`/healthz` asks when
    /// nothing else has written for a while).
    func checkWritable() async throws(StoreError)

    /// Finishes queued writes and releases the store; later calls fail.
    func close() async
}

/// A store failure: the operation that needed it fails with `INTERNAL`, and the cause is logged.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The database file is from a newer Parlor; refuse to touch it.
        case newerSchema(found: Int, supported: Int)
        /// The file is not a database, or is damaged.
        case corrupt
        /// The disk (or its quota) is full.
        case diskFull
        /// The data directory cannot be created, read or written.
        case unavailable
        /// Anything else the database reported.
        case failed
    }

    public var kind: Kind
    /// What happened, with the underlying cause, for the log.
    public var reason: String

    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var description: String { reason }

    /// What went wrong in a few words, for `/healthz` (which anyone may read, so no paths).
    public var summary: String {
        switch kind {
        case .newerSchema: "the database is from a newer Parlor"
        case .corrupt: "the database is damaged"
        case .diskFull: "the disk is full"
        case .unavailable: "the data directory cannot be written"
        case .failed: "the database reported an error"
        }
    }
}
