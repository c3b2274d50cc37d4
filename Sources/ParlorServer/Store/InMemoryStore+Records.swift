import ParlorRules

/// Game records in memory, under the store's one lock with the games they belong to.
extension InMemoryStore: GameRecordStore {
    struct MemoryRecord: Sendable {
        var head: StoredGameRecord
        var steps: [GameRecordStep] = []
        /// When it was created among every record (`MemoryRecords.inOrder`).
        fileprivate(set) var sequence = 0

        /// What one save adds: its steps and, when it finished the game, the finish.
        mutating func add(_ newSteps: [GameRecordStep], finishedBy archive: GameArchive?) {
            steps += newSteps
            head.stepCount = steps.count
            if let archive, head.finishedAt == nil {
                head.finishedAt = archive.finishedAt.millisecondsSinceEpoch
                head.historyKey = archive.key
            }
        }
    }

    /// Every record by id, and the ids by game code. Adding and removing a record costs the same
    /// however many there are: a game's deletion runs under the store's one lock.
    struct MemoryRecords: Sendable {
        /// Changed in place by saves; records come and go through `insert` and `remove` only.
        var byID: [String: MemoryRecord] = [:]
        private var idsByCode: [String: Set<String>] = [:]
        private var created = 0

        mutating func insert(_ record: MemoryRecord) {
            var record = record
            created += 1
            record.sequence = created
            byID[record.head.id] = record
            idsByCode[record.head.code, default: []].insert(record.head.id)
        }

        mutating func remove(_ id: String) {
            guard let record = byID.removeValue(forKey: id) else { return }
            idsByCode[record.head.code]?.remove(id)
            if idsByCode[record.head.code]?.isEmpty == true { idsByCode[record.head.code] = nil }
        }

        /// In creation order (an account's export, the list of every record: rare, so sorted here).
        var inOrder: [MemoryRecord] { byID.values.sorted { $0.sequence < $1.sequence } }

        /// The records of the games that had this code (codes are reused once a game is gone).
        func withCode(_ code: String) -> [MemoryRecord] {
            (idsByCode[code] ?? []).compactMap { byID[$0] }
        }
    }

    /// Applies what a save adds to its game's record (inside the lock that saves the game), in place:
    /// the steps are appended to the stored array, so a save does not copy the other games' records.
    static func applyRecord(of game: StoredGame, to state: inout State) {
        guard let write = game.record else { return }
        if let opening = write.opening {
            state.gameRecords.insert(MemoryRecord(head: StoredGameRecord(
                id: write.id, kind: game.kind.name, gameID: game.id, code: game.code, createdAt: opening.createdAt,
                initialState: opening.initialState, initialVersion: opening.initialVersion, stepCount: 0,
                access: opening.access)))
        }
        state.gameRecords.byID[write.id]?.add(write.steps, finishedBy: game.archive)
    }

    /// Forgets the unfinished record of a deleted game (a finished one stays with its history).
    /// `game` is the deleted game as it was last saved, which names its record.
    static func deleteRecord(of game: StoredGame, in state: inout State) {
        guard let id = game.record?.id, let record = state.gameRecords.byID[id],
              record.head.gameID == game.id, record.head.finishedAt == nil
        else { return }
        state.gameRecords.remove(id)
    }

    /// Reads inside the lock: a copy of the records held outside it would make the next save copy them all.
    private func withRecords<Result>(_ body: (MemoryRecords) -> Result) -> Result {
        state.withLockedValue { body($0.gameRecords) }
    }

    func gameRecord(id: String) async throws(StoreError) -> StoredGameRecord? {
        withRecords { $0.byID[id]?.head }
    }

    func finishedGameRecord(code: String) async throws(StoreError) -> StoredGameRecord? {
        withRecords { records in
            records.withCode(code).map(\.head).filter { $0.finishedAt != nil }
                .max { ($0.finishedAt ?? 0, $0.createdAt) < ($1.finishedAt ?? 0, $1.createdAt) }
        }
    }

    func gameRecordSteps(id: String, from: Int, limit: Int) async throws(StoreError) -> [GameRecordStep] {
        withRecords { Array(($0.byID[id]?.steps ?? []).filter { $0.step >= from }.prefix(max(0, limit))) }
    }

    func gameRecordIDs() async throws(StoreError) -> [String] {
        withRecords { $0.inOrder.map(\.head.id) }
    }

    func gameRecordCheckpoints(of record: StoredGameRecord) async throws(StoreError) -> GameRecordCheckpoints {
        let (live, filed) = state.withLockedValue { state in
            let live = state.games.first { $0.key.name == record.kind }?.value[record.gameID].flatMap {
                $0.record?.id == record.id ? $0.state : nil
            }
            let filed = state.history.first { $0.kind.name == record.kind && $0.key == record.historyKey }?.state
            return (live, filed)
        }
        return GameRecordCheckpoints(live: try live?.json(), filed: try filed?.json())
    }
}
