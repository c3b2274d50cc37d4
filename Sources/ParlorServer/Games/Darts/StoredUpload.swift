import Foundation
import ParlorRules
import ParlorWire

/// An uploaded match as the store keeps it (`UploadedGame.state`): the upload as sent (to tell a
/// repeated upload from a conflicting one), its turns once uploaded, and the record served from it —
/// built once, when it was stored, with the statistics the turns make.
struct StoredUpload: Sendable, Equatable, Codable {
    var upload: MatchUpload
    var turns: [MatchThrow]?
    var record: MatchRecord

    func json() throws(StoreError) -> String {
        try StoredJSON.encode(self, what: "uploaded match \(record.id)")
    }

    static func read(_ game: UploadedGame) throws(StoreError) -> StoredUpload {
        try StoredJSON.decode(StoredUpload.self, from: game.state, what: "uploaded match \(game.id)", location: "uploaded_games")
    }

    /// The stored form of `checked` with `turns` (checked against it already) and the match they make.
    init(_ checked: CheckedUpload, turns: [MatchThrow]?, replayed: DartsMatch?) {
        upload = checked.upload
        self.turns = turns
        let players = checked.seats.enumerated().map { seat, player -> MatchRecord.Player in
            if let replayed { return MatchRecord.Player(replayed, seat: seat, playerId: player.playerId, name: player.name) }
            // Without the turns only the winner is known, and only when an account player won.
            return MatchRecord.Player(
                playerId: player.playerId, name: player.name, order: seat, isWinner: player.playerId != nil && player.playerId == checked.winnerId,
                legsWon: nil, setsWon: nil, stats: nil)
        }
        let settings = checked.settings
        record = MatchRecord(
            id: checked.id, gameType: settings.gameType.rawValue, players: players, startedAt: checked.startedAt.iso8601,
            endedAt: checked.endedAt.iso8601, winnerId: checked.winnerId,
            metadata: MatchRecord.Metadata(
                durationSeconds: checked.durationSeconds, inRule: settings.inRule.rawValue, outRule: settings.outRule.rawValue,
                legs: settings.legs, sets: settings.sets, code: nil),
            updatedAt: checked.updatedAt.iso8601)
    }

    /// What the match adds to each account player's lifetime: a win, and — once the turns are known —
    /// the points, darts and checkouts they make.
    static func tallies(_ checked: CheckedUpload, replayed: DartsMatch?) -> [UserID: PlayerTally] {
        if let replayed { return replayed.accountTallies }
        var tallies: [UserID: PlayerTally] = [:]
        for player in checked.accountPlayers { tallies[player] = [DartsMatch.TallyKey.won: player == checked.winnerId ? 1 : 0] }
        return tallies
    }
}
