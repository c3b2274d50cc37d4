import NIOConcurrencyHelpers
import NIOCore
import ParlorRules

/// The server's store, watched: it remembers how the last write went (every save and deletion of every
/// game, and every write of a game's own records, passes through it), and can be asked whether the
/// store can write, which `/healthz` reports.
///
/// A store that cannot write (a full disk, a directory turned read-only) answers every change with
/// `INTERNAL`, so a health check that says "ok" meanwhile sends clients to a server that cannot serve
/// them. When nothing has written for `probeInterval`, asking makes one small write of its own
/// (`checkWritable`), at most one at a time, so polling `/healthz` costs the disk little.
final class MonitoredStore: ParlorStore {
    enum Health: Sendable, Equatable {
        case healthy
        /// The last write failed; the summary says why in a few words.
        case unhealthy(String)
    }

    private struct LastWrite {
        var at: Instant
        var failure: StoreError?
    }

    private struct State {
        var last: LastWrite?
        var probing = false
        /// Writes that came back durable, since start (the operator's page shows their rate).
        var committed = 0
    }

    let base: any ParlorStore
    private let clock: any ParlorClock
    private let probeMilliseconds: Int64
    private let state = NIOLockedValueBox(State())

    init(_ base: any ParlorStore, clock: any ParlorClock, probeInterval: TimeAmount) {
        self.base = base
        self.clock = clock
        probeMilliseconds = probeInterval.nanoseconds / 1_000_000
    }

    /// How the last write went, after probing the store when nothing has written for a while.
    func health() async -> Health {
        let probe = state.withLockedValue { state -> Bool in
            let quietSince = clock.now.millisecondsSinceEpoch - probeMilliseconds
            guard !state.probing, state.last.map({ $0.at.millisecondsSinceEpoch <= quietSince }) ?? true else { return false }
            state.probing = true
            return true
        }
        if probe {
            try? await checkWritable()
            state.withLockedValue { $0.probing = false }
        }
        return state.withLockedValue { state in
            guard let failure = state.last?.failure else { return .healthy }
            return .unhealthy("the store cannot write (\(failure.summary))")
        }
    }

    /// Called on every write's way back; a write is the store's health as much as any probe.
    /// A write that lost its race to another node (`.conflict`) reached the database and was answered:
    /// it counts as a write that went through, not as a store that cannot write.
    private func record(_ failure: StoreError?) {
        let failure = failure?.kind == .conflict ? nil : failure
        let now = clock.now
        state.withLockedValue { state in
            state.last = LastWrite(at: now, failure: failure)
            if failure == nil { state.committed += 1 }
        }
    }

    /// Writes that came back durable since start.
    var committedWrites: Int { state.withLockedValue { $0.committed } }

    // MARK: ParlorStore

    func serverSecret() async throws(StoreError) -> [UInt8] { try await base.serverSecret() }

    func loadGames(_ kind: GameKind) async throws(StoreError) -> [StoredGame] { try await base.loadGames(kind) }
    func loadGame(_ kind: GameKind, id: String) async throws(StoreError) -> StoredGame? { try await base.loadGame(kind, id: id) }
    func loadGame(_ kind: GameKind, code: String) async throws(StoreError) -> StoredGame? { try await base.loadGame(kind, code: code) }
    var sharedByNodes: Bool { base.sharedByNodes }

    nonisolated(nonsending) func saveGame(_ game: StoredGame) async throws(StoreError) {
        do { try await base.saveGame(game) } catch { record(error); throw error }
        record(nil)
    }

    func connectedElsewhere(_ users: [UserID], seenSince: Instant) async throws(StoreError) -> Bool {
        try await base.connectedElsewhere(users, seenSince: seenSince)
    }

    nonisolated(nonsending) func deleteGame(_ kind: GameKind, id: String, version: Int?) async throws(StoreError) {
        do { try await base.deleteGame(kind, id: id, version: version) } catch { record(error); throw error }
        record(nil)
    }

    func history(_ kind: GameKind, of user: UserID, before: Instant?, limit: Int) async throws(StoreError) -> [StoredState] {
        try await base.history(kind, of: user, before: before, limit: limit)
    }

    func lifetime(_ kind: GameKind, of user: UserID) async throws(StoreError) -> [LifetimeEntry] {
        try await base.lifetime(kind, of: user)
    }

    func uploadedGame(_ kind: GameKind, id: String) async throws(StoreError) -> UploadedGame? {
        try await base.uploadedGame(kind, id: id)
    }

    func saveUploadedGame(_ game: UploadedGame, replacing: Instant?) async throws(StoreError) -> Bool {
        try await recordingWrite { () async throws(StoreError) in try await base.saveUploadedGame(game, replacing: replacing) }
    }

    func uploadedGames(_ kind: GameKind, of user: UserID, before: Instant?, limit: Int) async throws(StoreError) -> [UploadedGame] {
        try await base.uploadedGames(kind, of: user, before: before, limit: limit)
    }

    func saveProfile(_ profile: ProfileRecord, creating: Bool) async throws(StoreError) -> ProfileWriteOutcome {
        try await recordingWrite { () async throws(StoreError) in try await base.saveProfile(profile, creating: creating) }
    }

    func userSettings(_ user: UserID, name: String) async throws(StoreError) -> String? {
        try await base.userSettings(user, name: name)
    }

    func saveUserSettings(_ user: UserID, name: String, json: String) async throws(StoreError) {
        try await recordingWrite { () async throws(StoreError) in try await base.saveUserSettings(user, name: name, json: json) }
    }

    func user(forIssuer issuer: String, subject: String, newUser: UserID) async throws(StoreError) -> UserID {
        try await recordingWrite { () async throws(StoreError) in
            try await base.user(forIssuer: issuer, subject: subject, newUser: newUser)
        }
    }

    func hasExternalIdentity(_ user: UserID) async throws(StoreError) -> Bool {
        try await base.hasExternalIdentity(user)
    }

    func link(issuer: String, subject: String, to user: UserID) async throws(StoreError) -> ExternalLinkOutcome {
        try await recordingWrite { () async throws(StoreError) in try await base.link(issuer: issuer, subject: subject, to: user) }
    }

    func accountData(of user: UserID) async throws(StoreError) -> AccountData { try await base.accountData(of: user) }

    func deleteAccount(_ user: UserID, pseudonym: UserID, at now: Instant) async throws(StoreError) -> AccountDeletionOutcome {
        try await recordingWrite { () async throws(StoreError) in try await base.deleteAccount(user, pseudonym: pseudonym, at: now) }
    }

    func isDeletedAccount(_ user: UserID) async throws(StoreError) -> Bool { try await base.isDeletedAccount(user) }

    func profiles(_ users: [UserID]) async throws(StoreError) -> [ProfileRecord] { try await base.profiles(users) }

    func searchProfiles(_ text: String, limit: Int) async throws(StoreError) -> [ProfileRecord] {
        try await base.searchProfiles(text, limit: limit)
    }

    func createFriendship(_ friendship: FriendshipRecord) async throws(StoreError) -> Bool {
        try await recordingWrite { () async throws(StoreError) in try await base.createFriendship(friendship) }
    }

    func updateFriendship(_ friendship: FriendshipRecord) async throws(StoreError) -> Bool {
        try await recordingWrite { () async throws(StoreError) in try await base.updateFriendship(friendship) }
    }

    func deleteFriendship(id: String) async throws(StoreError) -> Bool {
        try await recordingWrite { () async throws(StoreError) in try await base.deleteFriendship(id: id) }
    }

    func friendships(of user: UserID) async throws(StoreError) -> [FriendshipRecord] { try await base.friendships(of: user) }

    var backend: StoreBackend { base.backend }

    /// A write whose outcome is the store's health.
    func recordingWrite<T: Sendable>(_ write: () async throws(StoreError) -> T) async throws(StoreError) -> T {
        let result: T
        do { result = try await write() } catch { record(error); throw error }
        record(nil)
        return result
    }

    func checkWritable() async throws(StoreError) {
        do { try await base.checkWritable() } catch { record(error); throw error }
        record(nil)
    }

    func close() async { await base.close() }
}
