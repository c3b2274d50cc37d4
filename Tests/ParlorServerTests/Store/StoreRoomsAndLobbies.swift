import ParlorRules
@testable import ParlorServer

/// Rooms and lobbies in a store exactly as the kernel keeps them (kinds `rummy` and `word-lobby`, each
/// game's stored form), so store tests can check a store with the games' own values. A finished room
/// is offered to history on every save, as the archive of the save that finished it; history files it
/// once.
extension ParlorStore {
    func saveRoom(_ room: RummyRoom) async throws(StoreError) {
        let archive = room.isFinished
            ? GameArchive(key: room.historyKey, players: room.members, finishedAt: room.finishedAt ?? room.createdAt)
            : nil
        try await saveGame(StoredGame(
            kind: RummyGame.kind, id: room.id.rawValue, code: room.id.rawValue, version: room.version,
            state: .value(StoredGameState<RummyGame>(room)), schedule: StoredGame.emptySchedule, archive: archive))
    }

    func loadRooms() async throws(StoreError) -> [RummyRoom] {
        try await loadGames(RummyGame.kind).map { stored throws(StoreError) in
            try StoredGameState<RummyGame>.state(of: stored.state, what: "room \(stored.id)", location: stored.location)
        }
    }

    func deleteRoom(_ code: RoomCode) async throws(StoreError) {
        try await deleteGame(RummyGame.kind, id: code.rawValue)
    }

    func finishedGames(of user: UserID, before: Instant?, limit: Int) async throws(StoreError) -> [RummyRoom] {
        try await history(RummyGame.kind, of: user, before: before, limit: limit).map { stored throws(StoreError) in
            try StoredGameState<RummyGame>.state(of: stored, what: "finished game", location: "history")
        }
    }

    func saveLobby(_ lobby: WordLobby) async throws(StoreError) {
        try await saveGame(StoredGame(
            kind: WordLobbyGame.kind, id: lobby.lobbyId, code: lobby.lobbyCode.rawValue, version: lobby.version,
            state: .value(StoredGameState<WordLobbyGame>(lobby)), schedule: StoredGame.emptySchedule))
    }

    func loadLobbies() async throws(StoreError) -> [WordLobby] {
        try await loadGames(WordLobbyGame.kind).map { stored throws(StoreError) in
            try StoredGameState<WordLobbyGame>.state(of: stored.state, what: "lobby \(stored.id)", location: stored.location)
        }
    }

    func deleteLobby(id: String) async throws(StoreError) {
        try await deleteGame(WordLobbyGame.kind, id: id)
    }
}

/// The rummy room a kernel save carries.
extension StoredGame {
    var room: RummyRoom? {
        try? StoredGameState<RummyGame>.state(of: state, what: "room", location: "a save")
    }
}
