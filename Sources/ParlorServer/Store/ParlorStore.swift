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

    /// The stored version of one live game; nil when there is none (it was deleted). What an actor
    /// reloads when another node saved the game first.
    func loadGame(_ kind: GameKind, id: String) async throws(StoreError) -> StoredGame?

    /// The stored live game of `kind` with this code, if any. What a node looks up when a client names
    /// a game it does not hold: another node may have created it.
    func loadGame(_ kind: GameKind, code: String) async throws(StoreError) -> StoredGame?

    /// Whether any of `users` was connected to another node that shares this store at `seenSince` or
    /// later (as the nodes report it). A store of one node's own answers false.
    func connectedElsewhere(_ users: [UserID], seenSince: Instant) async throws(StoreError) -> Bool

    /// Whether other nodes write to this store too, so a game this node does not hold may still exist.
    /// A store of one node's own answers no, and a code it does not know is simply not found.
    var sharedByNodes: Bool { get }

    /// Removes a live game (its last player left, or it expired). History is kept. With `version`, a
    /// store shared by nodes removes it only as of that version, and otherwise deletes nothing and
    /// throws `.conflict` (another node changed or deleted it); a store of one node's own ignores it.
    nonisolated(nonsending) func deleteGame(_ kind: GameKind, id: String, version: Int?) async throws(StoreError)

    /// The finished games of `kind` in `user`'s history, newest first, finished strictly before
    /// `before` when given; at most `limit` (at least one).
    func history(_ kind: GameKind, of user: UserID, before: Instant?, limit: Int) async throws(StoreError) -> [StoredState]

    // MARK: Catalog

    /// The newest stored catalog, or nil when none was ever stored.
    func loadCatalog() async throws(StoreError) -> Catalog?

    /// Stores a catalog as the newest version.
    nonisolated(nonsending) func saveCatalog(_ catalog: Catalog) async throws(StoreError)

    /// Every finished game of `kind` in `user`'s history, the server's and uploaded ones alike, as its
    /// tally for the player's lifetime totals.
    func lifetime(_ kind: GameKind, of user: UserID) async throws(StoreError) -> [LifetimeEntry]

    // MARK: Uploaded games

    /// The uploaded game of `kind` with this id, if any.
    func uploadedGame(_ kind: GameKind, id: String) async throws(StoreError) -> UploadedGame?

    /// Stores `game`, durably, if the stored version is still the one the caller decided against:
    /// none when `replacing` is nil, else the one uploaded as of `replacing`. False (nothing written)
    /// when another upload got there first; the caller reads again and decides again.
    func saveUploadedGame(_ game: UploadedGame, replacing: Instant?) async throws(StoreError) -> Bool

    /// `user`'s uploaded games of `kind`, newest first, finished strictly before `before` when given;
    /// at most `limit` (at least one).
    func uploadedGames(_ kind: GameKind, of user: UserID, before: Instant?, limit: Int) async throws(StoreError) -> [UploadedGame]

    // MARK: Profiles and friends

    /// Creates (`creating`) or replaces the user's profile, durably, unless the outcome says why not.
    func saveProfile(_ profile: ProfileRecord, creating: Bool) async throws(StoreError) -> ProfileWriteOutcome

    /// The profiles of these users that exist, in no particular order.
    func profiles(_ users: [UserID]) async throws(StoreError) -> [ProfileRecord]

    /// Profiles whose handle, folded name or folded nickname contains `text` (already folded): the exact
    /// handle first, then those where it begins one of them (or a word of the name or nickname), then
    /// the rest; by name within each; at most `limit`.
    func searchProfiles(_ text: String, limit: Int) async throws(StoreError) -> [ProfileRecord]

    /// Stores a new request, durably; false (nothing written) when the two users already have one, in
    /// either direction, whatever its status.
    func createFriendship(_ friendship: FriendshipRecord) async throws(StoreError) -> Bool

    /// Replaces a request's status, durably; false when it no longer exists.
    func updateFriendship(_ friendship: FriendshipRecord) async throws(StoreError) -> Bool

    /// Deletes a request or friendship, durably; false when it did not exist.
    func deleteFriendship(id: String) async throws(StoreError) -> Bool

    /// Every request and friendship `user` is part of, either side, oldest first.
    func friendships(of user: UserID) async throws(StoreError) -> [FriendshipRecord]

    // MARK: Users' settings

    /// The settings `user` last saved under `name` (a game's defaults, such as a quiz's `UserSettings`),
    /// as the JSON they were saved as; nil when they never saved any.
    func userSettings(_ user: UserID, name: String) async throws(StoreError) -> String?

    /// Replaces `user`'s settings under `name`, durably.
    func saveUserSettings(_ user: UserID, name: String, json: String) async throws(StoreError)

    // MARK: Health

    /// Makes one small write durable, to learn whether the store can write now (`/healthz` asks when
    /// nothing else has written for a while).
    func checkWritable() async throws(StoreError)

    /// Finishes queued writes and releases the store; later calls fail.
    func close() async
}

extension ParlorStore {
    /// One game, read through `loadGames`: for stores where one node is the only writer, which never
    /// report a conflict and so are never asked.
    public func loadGame(_ kind: GameKind, id: String) async throws(StoreError) -> StoredGame? {
        try await loadGames(kind).first { $0.id == id }
    }

    /// One game by code, read through `loadGames`, for the same stores: never asked, as they are not
    /// shared.
    public func loadGame(_ kind: GameKind, code: String) async throws(StoreError) -> StoredGame? {
        try await loadGames(kind).first { $0.code == code }
    }

    public var sharedByNodes: Bool { false }

    /// One node's own store: nobody is connected anywhere else.
    public func connectedElsewhere(_ users: [UserID], seenSince: Instant) async throws(StoreError) -> Bool { false }
}

/// A store failure: the operation that needed it fails with `INTERNAL` (`UNAVAILABLE` when the
/// database cannot be reached), and the cause is logged.
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
        /// A database server (PostgreSQL) cannot be reached now; nothing was changed, and the store
        /// reconnects on its own. Clients get `UNAVAILABLE`.
        case unreachable
        /// Another node saved the game first: the stored version is no longer the one the save
        /// replaced. Nothing was written; the caller reloads the game and tries again.
        case conflict
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
        case .unreachable: "the database cannot be reached"
        case .conflict: "another node changed the game first"
        case .failed: "the database reported an error"
        }
    }
}

extension ParlorStore {
    /// Removes a live game whatever its version.
    nonisolated(nonsending) func deleteGame(_ kind: GameKind, id: String) async throws(StoreError) {
        try await deleteGame(kind, id: id, version: nil)
    }
}
