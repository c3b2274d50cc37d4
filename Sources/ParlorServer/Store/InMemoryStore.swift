import NIOConcurrencyHelpers
import ParlorRules
import SystemTLS

/// A store that keeps everything in memory: nothing survives a restart. Used by tests and by
/// `--no-persist` (a benchmark-only flag that measures what durability costs).
public final class InMemoryStore: ParlorStore {
    private struct State {
        var secret: [UInt8]?
        var rooms: [RoomCode: RummyRoom] = [:]
        var history: [RummyRoom] = []
        var recordedGames: Set<String> = []
        var lobbies: [String: WordLobby] = [:]
        var catalog: Catalog?
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    public func serverSecret() async throws(StoreError) -> [UInt8] {
        state.withLockedValue { state in
            if let secret = state.secret { return secret }
            let secret = SecureRandom.bytes(count: 32)
            state.secret = secret
            return secret
        }
    }

    public func loadRooms() async throws(StoreError) -> [RummyRoom] {
        state.withLockedValue { Array($0.rooms.values) }
    }

    nonisolated(nonsending) public func saveRoom(_ room: RummyRoom) async throws(StoreError) {
        state.withLockedValue { state in
            state.rooms[room.id] = room
            let key = "\(room.id.rawValue)@\(room.createdAt.millisecondsSinceEpoch)"
            if room.isFinished, state.recordedGames.insert(key).inserted {
                state.history.append(room)
            }
        }
    }

    nonisolated(nonsending) public func deleteRoom(_ code: RoomCode) async throws(StoreError) {
        _ = state.withLockedValue { $0.rooms.removeValue(forKey: code) }
    }

    public func finishedGames(of user: UserID, before: Instant?, limit: Int) async throws(StoreError) -> [RummyRoom] {
        state.withLockedValue { state in
            state.history
                .filter { room in
                    room.players.contains { $0.id == user }
                        && (before == nil || (room.finishedAt ?? room.createdAt) < before!)
                }
                .sorted { ($0.finishedAt ?? $0.createdAt) > ($1.finishedAt ?? $1.createdAt) }
                .prefix(max(1, limit))
                .map { $0 }
        }
    }

    public func loadLobbies() async throws(StoreError) -> [WordLobby] {
        state.withLockedValue { Array($0.lobbies.values) }
    }

    nonisolated(nonsending) public func saveLobby(_ lobby: WordLobby) async throws(StoreError) {
        state.withLockedValue { $0.lobbies[lobby.lobbyId] = lobby }
    }

    nonisolated(nonsending) public func deleteLobby(id: String) async throws(StoreError) {
        _ = state.withLockedValue { $0.lobbies.removeValue(forKey: id) }
    }

    public func loadCatalog() async throws(StoreError) -> Catalog? {
        state.withLockedValue { $0.catalog }
    }

    nonisolated(nonsending) public func saveCatalog(_ catalog: Catalog) async throws(StoreError) {
        state.withLockedValue { $0.catalog = catalog }
    }

    public func close() async {}
}
