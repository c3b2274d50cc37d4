import Foundation
import ParlorRules
import ParlorWire

/// What a quiz's actions read from the server, kept with each step of its record
/// (`GameDefinition.environmentReads`), so a quiz replays the same after its photos are gone: a
/// photo's start (`start`, `nextPhoto`) reads that photo's tile previews.
struct PhotoQuizReads: Codable, Equatable, TilePreviewSource {
    /// The photo whose previews were read, and what was read (nil: none could be).
    var photo: String
    var previews: TilePreviews?

    func previews(ofPhoto id: String) -> TilePreviews? { id == photo ? previews : nil }
}

extension PhotoQuizGame {
    func environmentReads(of action: PhotoQuizAction, reaching quiz: PhotoQuiz, in environment: PhotoQuizEnvironment) throws(WireError) -> String? {
        switch action {
        case .start, .nextPhoto:
            // The round the action started keeps what the rules made of the read.
            guard let round = quiz.round, quiz.photos.indices.contains(round.photo) else { return nil }
            do {
                let reads = PhotoQuizReads(photo: quiz.photos[round.photo].id, previews: round.previews)
                return String(decoding: try JSONEncoder().encode(reads), as: UTF8.self)
            } catch {
                throw WireError.internalError("What a quiz read could not be recorded: \(error)")
            }
        case .join, .leave, .addPhoto, .updateSettings, .revealTiles, .closeGuesses, .guess, .reveal, .quit, .removePlayer, .recordRematch, .handOverHost:
            return nil
        }
    }

    func replayEnvironment(reading json: String) throws -> PhotoQuizEnvironment {
        PhotoQuizEnvironment(previews: try JSONDecoder().decode(PhotoQuizReads.self, from: Data(json.utf8)))
    }
}
