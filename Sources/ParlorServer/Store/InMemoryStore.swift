import NIOConcurrencyHelpers
import ParlorRules
import SystemTLS

/// A store that keeps everything in memory: nothing survives a restart. Used by tests and by
/// `--no-persist` (a benchmark-only flag that measures what durability costs). Game states are kept as
/// the live values they arrive as, never encoded.
public final class InMemoryStore: ParlorStore {
    struct Filed {
        var kind: GameKind
        var key: String
        var players: Set<UserID>
        var finishedAt: Instant
        var state: StoredState
        var tallies: [UserID: PlayerTally]
    }

    /// Everything, under one lock (the accounts and uploads live in extensions of their own).
    struct State {
        var secret: [UInt8]?
        var games: [GameKind: [String: StoredGame]] = [:]
        /// In filing order.
        var history: [Filed] = []
        var filedKeys: Set<String> = []
        /// What games keep beside their games, by each game's own name for it.
        var records: [String: any Sendable] = [:]
        /// Every game's record, changed in place by each save: a save costs what it adds, not a copy
        /// of every record (`InMemoryStore+Records.swift`).
        var gameRecords = MemoryRecords()
        var profiles: [UserID: ProfileRecord] = [:]
        /// In creation order.
        var friendships: [FriendshipRecord] = []
        var uploads: [GameKind: [String: UploadedGame]] = [:]
        var userSettings: [UserID: [String: String]] = [:]
        /// (issuer, subject) → user.
        var externalIdentities: [ExternalIdentity: UserID] = [:]
        /// Fingerprints of deleted users (`AccountErasure.fingerprint`).
        var deletedUsers: Set<String> = []
    }

    let state = NIOLockedValueBox(State())

    public init() {}

    public var backend: StoreBackend { .memory(self) }

    public func serverSecret() async throws(StoreError) -> [UInt8] {
        state.withLockedValue { state in
            if let secret = state.secret { return secret }
            let secret = SecureRandom.bytes(count: 32)
            state.secret = secret
            return secret
        }
    }

    public func loadGames(_ kind: GameKind) async throws(StoreError) -> [StoredGame] {
        state.withLockedValue { state in (state.games[kind] ?? [:]).values.sorted { $0.id < $1.id } }
    }

    nonisolated(nonsending) public func saveGame(_ game: StoredGame) async throws(StoreError) {
        state.withLockedValue { state in
            var stored = game
            stored.archive = nil
            stored.record = game.record.map { GameRecordWrite(id: $0.id, steps: []) }
            state.games[game.kind, default: [:]][game.id] = stored
            Self.applyRecord(of: game, to: &state)
            if let archive = game.archive, state.filedKeys.insert("\(game.kind)/\(archive.key)").inserted {
                state.history.append(Filed(
                    kind: game.kind, key: archive.key, players: Set(archive.players), finishedAt: archive.finishedAt,
                    state: game.state, tallies: archive.tallies))
            }
        }
    }

    nonisolated(nonsending) public func deleteGame(_ kind: GameKind, id: String, version: Int?) async throws(StoreError) {
        state.withLockedValue { state in
            if let game = state.games[kind]?.removeValue(forKey: id) { Self.deleteRecord(of: game, in: &state) }
        }
    }

    public func history(
        _ kind: GameKind, of user: UserID, before: Instant?, limit: Int
    ) async throws(StoreError) -> [StoredState] {
        state.withLockedValue { state in
            // Newest first; among games finished at the same instant, the one filed last first.
            state.history.indices
                .filter { index in
                    let filed = state.history[index]
                    return filed.kind == kind && filed.players.contains(user) && (before.map { filed.finishedAt < $0 } ?? true)
                }
                .sorted { state.history[$0].finishedAt > state.history[$1].finishedAt || (state.history[$0].finishedAt == state.history[$1].finishedAt && $0 > $1) }
                .prefix(max(1, limit))
                .map { state.history[$0].state }
        }
    }

    /// Memory can always take a write.
    public func checkWritable() async throws(StoreError) {}

    public func close() async {}
}
