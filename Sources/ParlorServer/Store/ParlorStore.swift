import ParlorRules

/// Where Parlor's state lives beneath the actors, as capabilities every store offers: the games
/// (`GameStore`: every live game of every kind and finished-game history), the accounts
/// (`AccountStore`: profiles, friendships, users' settings), uploaded games (`UploadStore`), the secret
/// that signs session tokens, and — through `backend` — the records a game keeps of its own, which
/// each game's folder adds to every store (the word game's catalog).
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
public protocol ParlorStore: GameStore, AccountStore, AccountDataStore, UploadStore {
    /// The secret that signs session tokens: created on first start, the same ever after.
    func serverSecret() async throws(StoreError) -> [UInt8]

    /// The store underneath (itself, or the one a wrapper forwards to): where a game's own records are
    /// kept, by the game's extension of each kind of store.
    var backend: StoreBackend { get }

    /// Runs a write of a game's own records as this store runs its own writes: a store that watches
    /// its writes (`MonitoredStore`) records how it went. Others just run it.
    func recordingWrite<T: Sendable>(_ write: () async throws(StoreError) -> T) async throws(StoreError) -> T

    // MARK: Health

    /// Makes one small write durable, to learn whether the store can write now (`/healthz` asks when
    /// nothing else has written for a while).
    func checkWritable() async throws(StoreError)

    /// Finishes queued writes and releases the store; later calls fail.
    func close() async
}

extension ParlorStore {
    public func recordingWrite<T: Sendable>(_ write: () async throws(StoreError) -> T) async throws(StoreError) -> T {
        try await write()
    }
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
