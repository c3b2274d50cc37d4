import Foundation
import ParlorRules

/// One write waiting for the next batch, already encoded.
///
/// Values are encoded to JSON by the caller before they are queued, so that work spreads over the
/// caller's tasks and the writer thread does nothing but SQLite.
enum SQLiteWrite: Sendable {
    case saveGame(SavedGame)
    /// `version`: delete only as of this version (a shared database checks it; nil: whatever is stored).
    case deleteGame(kind: String, noun: String, id: String, version: Int?)

    struct SavedGame: Sendable {
        var kind: String
        /// "room": how error reasons name the game.
        var noun: String
        var id: String
        var code: String
        var version: Int
        var state: String
        var schedule: String
        /// What this save replaces; only a shared database checks it.
        var replacing: StoredGame.Replacing
        /// The node that serves the game, when another than the saver (a shared database tells it).
        var servedBy: String?
        /// Set when this save files the finished game in history, once.
        var archive: Archive?
        /// What the save adds to the game's record (nil for a game without one).
        var record: GameRecordWrite?
    }

    struct Archive: Sendable {
        var key: String
        var finishedAt: Int64
        var players: [String]
        /// Each player's tally as JSON, by user id.
        var tallies: [String: String]
    }

    /// Writes with the same key replace each other; within one batch only the last is applied.
    enum Key: Hashable, Comparable {
        case game(kind: String, id: String)
    }

    /// What a batch applies, in order: the archiving saves (every one, so a game is filed as it was when
    /// it finished even if a later version of it is in the same batch), then the last write of each key.
    static func collapsed(_ writes: [SQLiteWrite]) -> (archiving: [SavedGame], last: [SQLiteWrite]) {
        var archiving: [SavedGame] = []
        for case .saveGame(let game) in writes where game.archive != nil {
            archiving.append(game)
        }
        var lastIndex: [Key: Int] = [:]
        lastIndex.reserveCapacity(writes.count)
        for (index, write) in writes.enumerated() {
            lastIndex[write.key] = index
        }
        return (archiving, writes.enumerated().filter { lastIndex[$0.element.key] == $0.offset }.map(\.element))
    }

    var key: Key {
        switch self {
        case .saveGame(let game): .game(kind: game.kind, id: game.id)
        case .deleteGame(let kind, _, let id, _): .game(kind: kind, id: id)
        }
    }
}

extension SQLiteWrite {
    static func save(_ game: StoredGame) throws(StoreError) -> SQLiteWrite {
        var archive: Archive?
        if let filed = game.archive {
            archive = Archive(
                key: filed.key, finishedAt: filed.finishedAt.millisecondsSinceEpoch, players: filed.players.map(\.rawValue),
                tallies: try TallyJSON.encode(filed.tallies))
        }
        return .saveGame(SavedGame(
            kind: game.kind.name, noun: game.kind.noun, id: game.id, code: game.code, version: game.version,
            state: try game.state.json(), schedule: game.schedule, replacing: game.replacing, servedBy: game.servedBy,
            archive: archive, record: game.record))
    }
}
