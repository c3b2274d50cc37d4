import ParlorRules
import ParlorWire

/// A finished match as a scorer's visit list (`GET /games/{code}/record.csv`): one line per visit, in
/// the order thrown — its set and leg, the thrower, the darts (when they were named; a visit entered as
/// a total has none), its total, the score left after it, and whether it bust or checked out.
extension DartsGame {
    var recordExportFormats: [RecordExportFormat] { [.csv] }

    func recordExport(_ format: RecordExportFormat, of games: [DartsMatch]) throws(WireError) -> String {
        guard format == .csv, let match = games.last else {
            throw WireError(.recordNotAvailable, "Darts matches are exported as csv only.")
        }
        var csv = CSVText(header: ["set", "leg", "visit", "player", "darts", "total", "score_left", "bust", "checkout"])
        for leg in match.legs {
            for (number, visit) in leg.visits.enumerated() {
                let scored = visit.scored
                csv.row([
                    String(leg.set), String(leg.number), String(number + 1),
                    match.players.indices.contains(visit.player) ? match.players[visit.player].name : "",
                    scored.entry.darts.map { $0.map(\.notation).joined(separator: " ") } ?? "",
                    String(scored.total), String(scored.remainingAfter), scored.isBust ? "yes" : "no", scored.isCheckout ? "yes" : "no",
                ])
            }
        }
        return csv.text
    }
}
