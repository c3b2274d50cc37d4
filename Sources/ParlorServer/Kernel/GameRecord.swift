import ParlorRules

/// A game's record: how it began and every action that changed it, in order — enough to play it again
/// through its rules (`GameRecordReplay`), for every kind of game at once.
///
/// Written by the game's actor with the save that applies the actions (`StoredGame.record`), so a store
/// commits the record's new steps in the same transaction as the game's new version: the two can never
/// disagree, not even after `kill -9`. A game's randomness is part of its state from creation (the
/// photo quiz's `seed`) and its time is each step's `at`, so the initial state and the steps are all
/// the rules need.
///
/// A record is named by its own id (a random UUID given at creation, kept in the game's row as
/// `games.record_id`), not by the game's id or code, which are reused. A game that finishes marks its
/// record finished (with the history entry it was filed as); a finished game's record is kept with its
/// history, and an unfinished game's record is deleted with the game.
struct GameRecordWrite: Sendable, Equatable {
    /// The record's id.
    var id: String
    /// Set on the save that creates the game: the record begins there.
    var opening: GameRecordOpening?
    /// The steps this save applied, in order.
    var steps: [GameRecordStep]
}

/// How a record begins: the game as it was created.
struct GameRecordOpening: Sendable, Equatable {
    /// When the game was created (milliseconds since 1970).
    var createdAt: Int64
    /// The game's stored form at creation (its seed included).
    var initialState: String
    var initialVersion: Int
    /// The game's access settings as it was created (`GameAccess`'s JSON), which decide who may read
    /// the record once the game is gone (`GameRecordAccess`); nil for an open game (and in records
    /// written before schema v8).
    var access: String? = nil
}

/// One applied action of a record, as stored.
struct GameRecordStep: Sendable, Equatable, Codable {
    /// 1 for the first action after creation, +1 for each.
    var step: Int
    /// The user who acted; nil for the clock (a scheduled action firing).
    var actor: String?
    /// The server's time the rules were given (milliseconds since 1970).
    var at: Int64
    /// The action as the rules received it: the rules' own Codable JSON of their `Action`.
    var action: String
    /// The game's version after the action.
    var version: Int
    /// What the action read from the server around the rules (`GameDefinition.environmentReads`), for
    /// a replay to read back; nil when it read nothing (and in records written before schema v7).
    var environment: String? = nil

    /// Who acted, as the rules were told; nil when the stored actor is not a user id.
    var caller: Caller? {
        guard let actor else { return .clock }
        return UserID(actor).map { .user($0) }
    }
}

/// The stored forms of a record's game (`GameRecordStore.gameRecordCheckpoints`).
struct GameRecordCheckpoints: Sendable, Equatable {
    /// The live game's row, while the game the record names lives.
    var live: String?
    /// The history entry the game was filed as, once it finished.
    var filed: String?
}

/// A record's head as a store reads it back.
struct StoredGameRecord: Sendable, Equatable {
    var id: String
    var kind: String
    var gameID: String
    var code: String
    var createdAt: Int64
    var initialState: String
    var initialVersion: Int
    /// When the game was filed in history; nil while it has not finished.
    var finishedAt: Int64?
    /// The history entry's key (`GameArchive.key`), once filed.
    var historyKey: String?
    /// Steps stored.
    var stepCount: Int
    /// The access settings the game was created with (`GameRecordOpening.access`); nil for an open game.
    var access: String? = nil
}

/// Where a store keeps records, reached through its `backend` (every kind of store offers it:
/// `SQLiteStore+Records`, `PostgresStore+Records`, `InMemoryStore+Records`). Records are written only
/// through `GameStore.saveGame` and removed only through `GameStore.deleteGame`.
protocol GameRecordStore: Sendable {
    /// The record with this id.
    func gameRecord(id: String) async throws(StoreError) -> StoredGameRecord?
    /// The newest finished record of a game with this code (codes are reused: the last one finished).
    func finishedGameRecord(code: String) async throws(StoreError) -> StoredGameRecord?
    /// Steps `from`… of a record, at most `limit`, in order.
    func gameRecordSteps(id: String, from: Int, limit: Int) async throws(StoreError) -> [GameRecordStep]
    /// Every record's id, oldest first (for `verify-records`).
    func gameRecordIDs() async throws(StoreError) -> [String]
    /// The stored forms of the record's game that its replay must reach: the live game's row (while
    /// the game it names lives: the record's last step must reach it) and the history entry it was
    /// filed as (some step must reach it).
    func gameRecordCheckpoints(of record: StoredGameRecord) async throws(StoreError) -> GameRecordCheckpoints
}

extension StoreBackend {
    /// This store's game records.
    var records: any GameRecordStore {
        switch self {
        case .memory(let store): store
        case .sqlite(let store): store
        #if PostgreSQL
        case .postgres(let store): store
        #endif
        }
    }
}
