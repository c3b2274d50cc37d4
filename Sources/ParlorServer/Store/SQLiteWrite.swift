import Foundation
import ParlorRules

/// One write waiting for the next batch, already encoded.
///
/// Values are encoded to JSON by the caller before they are queued, so that work spreads over the
/// caller's tasks and the writer thread does nothing but SQLite.
enum SQLiteWrite: Sendable {
    case saveRoom(SavedRoom)
    case deleteRoom(code: String)
    case saveLobby(id: String, code: String, version: Int, payload: String)
    case deleteLobby(id: String)
    case saveCatalog(version: Int, payload: String)

    struct SavedRoom: Sendable {
        var code: String
        var version: Int
        var payload: String
        /// Set when the room's game is over: the game goes to history, once.
        var finishedGame: FinishedGame?
    }

    struct FinishedGame: Sendable {
        var createdAt: Int64
        var finishedAt: Int64
        var players: [String]
    }

    /// Writes with the same key replace each other; within one batch only the last is applied.
    enum Key: Hashable {
        case room(String)
        case lobby(String)
        case catalog(Int)
    }

    var key: Key {
        switch self {
        case .saveRoom(let room): .room(room.code)
        case .deleteRoom(let code): .room(code)
        case .saveLobby(let id, _, _, _), .deleteLobby(let id): .lobby(id)
        case .saveCatalog(let version, _): .catalog(version)
        }
    }
}

extension SQLiteWrite {
    static func save(_ room: RummyRoom) throws(StoreError) -> SQLiteWrite {
        let finishedGame = room.isFinished
            ? FinishedGame(
                createdAt: room.createdAt.millisecondsSinceEpoch,
                // The reference store files a game without a finish time under its creation time.
                finishedAt: (room.finishedAt ?? room.createdAt).millisecondsSinceEpoch,
                players: room.players.map(\.id.rawValue))
            : nil
        return .saveRoom(SavedRoom(
            code: room.id.rawValue, version: room.version,
            payload: try SQLiteJSON.encode(room, what: "room \(room.id.rawValue)"),
            finishedGame: finishedGame))
    }

    static func save(_ lobby: WordLobby) throws(StoreError) -> SQLiteWrite {
        .saveLobby(
            id: lobby.lobbyId, code: lobby.lobbyCode.rawValue, version: lobby.version,
            payload: try SQLiteJSON.encode(lobby, what: "lobby \(lobby.lobbyId)"))
    }

    static func save(_ catalog: Catalog) throws(StoreError) -> SQLiteWrite {
        .saveCatalog(
            version: catalog.version,
            payload: try SQLiteJSON.encode(catalog, what: "catalog version \(catalog.version)"))
    }
}
