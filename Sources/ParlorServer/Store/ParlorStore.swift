import ParlorRules

/// Where Parlor's state lives beneath the actors: rooms, lobbies, the catalog, finished-game history and
/// the secret that signs session tokens.
///
/// The actors own the live state; the store makes it last. An operation's reply goes out only after
/// the store has committed its change, so every method that writes returns only once the write is
/// durable. Implementations batch concurrent writes from different rooms into one commit (group
/// commit) so durability does not cap throughput.
///
/// The writes are `nonisolated(nonsending)`: they run on the calling room's actor up to the point
/// where they wait for the disk, and resume straight onto it, instead of hopping to the global
/// executor and back around every save.
///
/// A shared database for several nodes can implement this protocol without touching the actors.
public protocol ParlorStore: Sendable {
    /// The secret that signs session tokens: created on first start, the same ever after.
    func serverSecret() async throws(StoreError) -> [UInt8]

    // MARK: Rummy rooms

    /// Every room that was live when the server last stopped (or crashed).
    func loadRooms() async throws(StoreError) -> [RummyRoom]

    /// Makes this version of the room durable. When the room's game is finished, the game is also
    /// written to the history of every player in it, in the same transaction (once per game).
    nonisolated(nonsending) func saveRoom(_ room: RummyRoom) async throws(StoreError)

    /// Removes a live room (its last player left, or it expired). History is kept.
    nonisolated(nonsending) func deleteRoom(_ code: RoomCode) async throws(StoreError)

    /// A player's finished games, newest first, finished strictly before `before` when given.
    func finishedGames(of user: UserID, before: Instant?, limit: Int) async throws(StoreError) -> [RummyRoom]

    // MARK: Word lobbies

    /// Every lobby that was live when the server last stopped, with its round and deadline.
    func loadLobbies() async throws(StoreError) -> [WordLobby]

    nonisolated(nonsending) func saveLobby(_ lobby: WordLobby) async throws(StoreError)

    nonisolated(nonsending) func deleteLobby(id: String) async throws(StoreError)

    // MARK: Catalog

    /// The newest stored catalog, or nil when none was ever stored.
    func loadCatalog() async throws(StoreError) -> Catalog?

    /// Stores a catalog as the newest version.
    nonisolated(nonsending) func saveCatalog(_ catalog: Catalog) async throws(StoreError)

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
}
