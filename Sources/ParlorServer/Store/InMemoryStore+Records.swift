import ParlorRules

/// Game records in memory, under the store's one lock with the games they belong to.
extension InMemoryStore: GameRecordStore {
    struct MemoryRecord: Sendable {
        var head: StoredGameRecord
        var steps: [GameRecordStep] = []

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

    /// Every record, with their ids in creation order.
    struct MemoryRecords: Sendable {
        var byID: [String: MemoryRecord] = [:]
        var order: [String] = []
    }

    /// Applies what a save adds to its game's record (inside the lock that saves the game), in place:
    /// the steps are appended to the stored array, so a save does not copy the other games' records.
    static func applyRecord(of game: StoredGame, to state: inout State) {
        guard let write = game.record else { return }
        if let opening = write.opening {
            state.gameRecords.byID[write.id] = MemoryRecord(head: StoredGameRecord(
                id: write.id, kind: game.kind.name, gameID: game.id, code: game.code, createdAt: opening.createdAt,
                initialState: opening.initialState, initialVersion: opening.initialVersion, stepCount: 0,
                access: opening.access))
            state.gameRecords.order.append(write.id)
        }
        state.gameRecords.byID[write.id]?.add(write.steps, finishedBy: game.archive)
    }

    /// Forgets the unfinished record of a deleted game (a finished one stays with its history).
    static func deleteRecord(ofGame id: String, kind: GameKind, in state: inout State) {
        let gone = state.gameRecords.byID.values.filter { $0.head.kind == kind.name && $0.head.gameID == id && $0.head.finishedAt == nil }.map(\.head.id)
        guard !gone.isEmpty else { return }
        for id in gone { state.gameRecords.byID[id] = nil }
        state.gameRecords.order.removeAll { gone.contains($0) }
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
            records.byID.values.map(\.head).filter { $0.code == code && $0.finishedAt != nil }
                .max { ($0.finishedAt ?? 0, $0.createdAt) < ($1.finishedAt ?? 0, $1.createdAt) }
        }
    }

    func gameRecordSteps(id: String, from: Int, limit: Int) async throws(StoreError) -> [GameRecordStep] {
        withRecords { Array(($0.byID[id]?.steps ?? []).filter { $0.step >= from }.prefix(max(0, limit))) }
    }

    func gameRecordIDs() async throws(StoreError) -> [String] {
        withRecords { $0.order }
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
