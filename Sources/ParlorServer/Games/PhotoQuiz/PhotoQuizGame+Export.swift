import Foundation
import ParlorRules
import ParlorWire

/// A finished quiz's guesses (`GET /games/{code}/record.csv`): one line per scored guess of every
/// revealed photo — the round, the guesser, where they guessed, how far off and the points — with the
/// photo's answer beside it; and the same as GeoJSON (`record.geojson`): each answer and each guess a
/// Point Feature, for any map. Guesses count as the reveal scored them (a changed guess, its last).
extension PhotoQuizGame {
    var recordExportFormats: [RecordExportFormat] { [.csv, .geoJSON] }

    func recordExport(_ format: RecordExportFormat, of games: [PhotoQuiz]) throws(WireError) -> String {
        let rounds = Self.revealedRounds(games)
        switch format {
        case .csv:
            var csv = CSVText(header: [
                "round", "photo", "player", "latitude", "longitude", "distance_km", "points", "answer_latitude", "answer_longitude", "answer_place",
            ])
            for revealed in rounds {
                for guess in revealed.guesses {
                    csv.row([
                        String(revealed.round), revealed.photo.id, revealed.name(guess.playerId),
                        Self.degrees(guess.coordinate.latitude), Self.degrees(guess.coordinate.longitude),
                        String(format: "%.3f", guess.distanceKm), String(guess.points),
                        Self.degrees(revealed.photo.location.latitude), Self.degrees(revealed.photo.location.longitude), revealed.place,
                    ])
                }
            }
            return csv.text
        case .geoJSON:
            var features: [GeoFeature] = []
            for revealed in rounds {
                features.append(GeoFeature(revealed.photo.location, properties: GeoProperties(
                    kind: "answer", round: revealed.round, photo: revealed.photo.id, place: revealed.place)))
                for guess in revealed.guesses {
                    features.append(GeoFeature(guess.coordinate, properties: GeoProperties(
                        kind: "guess", round: revealed.round, photo: revealed.photo.id, player: revealed.name(guess.playerId),
                        playerId: guess.playerId.rawValue, distanceKm: (guess.distanceKm * 1000).rounded() / 1000, points: guess.points)))
                }
            }
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                return String(decoding: try encoder.encode(GeoFeatureCollection(features: features)), as: UTF8.self)
            } catch {
                throw WireError.internalError("The quiz's GeoJSON could not be written: \(error)")
            }
        default:
            throw WireError(.recordNotAvailable, "Quizzes are exported as csv or geojson.")
        }
    }

    /// A photo as its reveal left it: the last version of each round whose guesses were scored.
    private struct RevealedRound {
        var round: Int
        var photo: QuizPhoto
        var guesses: [ScoredGuess]
        var players: [QuizPlayer]

        var place: String { photo.place.map { [$0.city, $0.country].compactMap { $0 }.joined(separator: ", ") } ?? "" }

        func name(_ id: UserID) -> String { players.first { $0.id == id }?.name ?? id.rawValue }
    }

    private static func revealedRounds(_ games: [PhotoQuiz]) -> [RevealedRound] {
        var byNumber: [Int: RevealedRound] = [:]
        for quiz in games {
            guard let round = quiz.round, let scored = round.scored, quiz.photos.indices.contains(round.photo) else { continue }
            byNumber[round.number] = RevealedRound(round: round.number, photo: quiz.photos[round.photo], guesses: scored, players: quiz.players)
        }
        return byNumber.keys.sorted().compactMap { byNumber[$0] }
    }

    private static func degrees(_ value: Double) -> String { String(format: "%.6f", value) }
}

/// GeoJSON (RFC 7946): a FeatureCollection of Points, longitude first.
private struct GeoFeatureCollection: Encodable {
    let type = "FeatureCollection"
    var features: [GeoFeature]
}

private struct GeoFeature: Encodable {
    struct Point: Encodable {
        let type = "Point"
        var coordinates: [Double]
    }

    let type = "Feature"
    var geometry: Point
    var properties: GeoProperties

    init(_ coordinate: GeoCoordinate, properties: GeoProperties) {
        geometry = Point(coordinates: [coordinate.longitude, coordinate.latitude])
        self.properties = properties
    }
}

private struct GeoProperties: Encodable {
    var kind: String
    var round: Int
    var photo: String
    var place: String?
    var player: String?
    var playerId: String?
    var distanceKm: Double?
    var points: Int?
}
