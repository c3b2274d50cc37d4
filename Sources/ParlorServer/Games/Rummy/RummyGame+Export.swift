import ParlorRules
import ParlorWire

/// A finished rummy game as its score sheet (`GET /games/{code}/record.csv`): one column per player in
/// seat order, one line per round with each player's points, then the totals.
extension RummyGame {
    var recordExportFormats: [RecordExportFormat] { [.csv] }

    func recordExport(_ format: RecordExportFormat, of games: [RummyRoom]) throws(WireError) -> String {
        guard format == .csv, let room = games.last else {
            throw WireError(.recordNotAvailable, "Rummy games are exported as csv only.")
        }
        var csv = CSVText(header: ["round"] + room.players.map(\.name))
        let rounds = room.players.map(\.scores.count).max() ?? 0
        for round in 0..<rounds {
            csv.row([String(round + 1)] + room.players.map { $0.scores.indices.contains(round) ? String($0.scores[round]) : "" })
        }
        csv.row(["total"] + room.players.map { String($0.totalScore) })
        return csv.text
    }
}
