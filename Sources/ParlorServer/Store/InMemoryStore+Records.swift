import ParlorRules

/// Game records in memory, under the store's one lock with the games they belong to.
extension InMemoryStore: GameRecordStore {
    struct MemoryRecord: Sendable {
        var head: StoredGameRecord
        var steps: [GameRecordStep] = []
    }

    /// Every record, with their ids in creation order.
    struct MemoryRecords: Sendable {
        var byID: [String: MemoryRecord] = [:]
        var order: [String] = []
    }

    static let recordsKey = "game-records"

    /// Applies what a save adds to its game's record (inside the lock that saves the game).
    static func applyRecord(of game: StoredGame, to state: inout State) {
        guard let write = game.record else { return }
        var records = state.records[recordsKey] as? MemoryRecords ?? MemoryRecords()
        if let opening = write.opening {
            records.byID[write.id] = MemoryRecord(head: StoredGameRecord(
                id: write.id, kind: game.kind.name, gameID: game.id, code: game.code, createdAt: opening.createdAt,
                initialState: opening.initialState, initialVersion: opening.initialVersion, stepCount: 0,
                access: opening.access))
            records.order.append(write.id)
        }
        if var record = records.byID[write.id] {
            record.steps += write.steps
            record.head.stepCount = record.steps.count
            if let archive = game.archive, record.head.finishedAt == nil {
                record.head.finishedAt = archive.finishedAt.millisecondsSinceEpoch
                record.head.historyKey = archive.key
            }
            records.byID[write.id] = record
        }
        state.records[recordsKey] = records
    }

    /// Forgets the unfinished record of a deleted game (a finished one stays with its history).
    static func deleteRecord(ofGame id: String, kind: GameKind, in state: inout State) {
        guard var records = state.records[recordsKey] as? MemoryRecords else { return }
        let gone = records.byID.values.filter { $0.head.kind == kind.name && $0.head.gameID == id && $0.head.finishedAt == nil }.map(\.head.id)
        guard !gone.isEmpty else { return }
        for id in gone { records.byID[id] = nil }
        records.order.removeAll { gone.contains($0) }
        state.records[recordsKey] = records
    }

    private func records() -> MemoryRecords {
        state.withLockedValue { $0.records[Self.recordsKey] as? MemoryRecords } ?? MemoryRecords()
    }

    func gameRecord(id: String) async throws(StoreError) -> StoredGameRecord? {
        records().byID[id]?.head
    }

    func finishedGameRecord(code: String) async throws(StoreError) -> StoredGameRecord? {
        records().byID.values.map(\.head).filter { $0.code == code && $0.finishedAt != nil }
            .max { ($0.finishedAt ?? 0, $0.createdAt) < ($1.finishedAt ?? 0, $1.createdAt) }
    }

    func gameRecordSteps(id: String, from: Int, limit: Int) async throws(StoreError) -> [GameRecordStep] {
        Array((records().byID[id]?.steps ?? []).filter { $0.step >= from }.prefix(max(0, limit)))
    }

    func gameRecordIDs() async throws(StoreError) -> [String] {
        records().order
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
