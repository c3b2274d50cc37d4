import Foundation
import ParlorRules
import ParlorWire

/// What a word lobby's actions read from the server, kept with each step of its record
/// (`GameDefinition.environmentReads`), so a match replays the same after the catalog or the word list
/// changed: a round's start reads the catalog (the game it played, and where that game stood in the
/// catalog's play order, which the lobby keeps to play "the next game"); a word's check reads the word
/// list (whether it holds the word).
struct WordLobbyReads: Codable, Equatable {
    /// A round's start: the game it played…
    var game: Game?
    /// …its place in the catalog's play order, and that order's length.
    var playIndex: Int?
    var playCount: Int?
    /// A word's check: the word as the list was asked for it, when the list held it.
    var words: [String]?
}

extension WordLobbyGame {
    func environmentReads(of action: WordLobbyAction, reaching lobby: WordLobby, in environment: WordLobbyEnvironment) throws(WireError) -> String? {
        let reads: WordLobbyReads
        switch action {
        case .startGame:
            guard let game = lobby.round?.game else { return nil }
            reads = WordLobbyReads(game: game, playIndex: lobby.nextGameIndex - 1, playCount: environment.catalog.playOrder.count)
        case .submitWord(let word):
            // The checker asks the list for the trimmed word, lowercased.
            let asked = word.trimmingWhitespace().lowercased()
            reads = WordLobbyReads(words: environment.wordList.contains(asked) ? [asked] : [])
        case .join, .leave, .endRound, .remove, .recordRematch, .handOverHost:
            return nil
        }
        do {
            return String(decoding: try JSONEncoder().encode(reads), as: UTF8.self)
        } catch {
            throw WireError.internalError("What a word lobby read could not be recorded: \(error)")
        }
    }

    /// A catalog whose play order has the recorded game at its recorded place (the other places hold
    /// stand-ins no action names), and a word list of the recorded words.
    func replayEnvironment(reading json: String) throws -> WordLobbyEnvironment {
        let reads = try JSONDecoder().decode(WordLobbyReads.self, from: Data(json.utf8))
        var games: [Game] = []
        if let game = reads.game, let index = reads.playIndex, let count = reads.playCount, (0..<count).contains(index) {
            games = (0..<count).map { place in
                place == index ? game : Game(id: " replay \(place)", name: "", timeLimit: game.timeLimit, kind: .unknown(type: "replay"))
            }
        }
        let catalog = Catalog(
            version: 0, updatedAt: Instant(millisecondsSinceEpoch: 0),
            gameModes: [GameMode(id: "replay", name: "", levels: [Level(id: "replay", name: "", difficulty: 1, games: games)])])
        return WordLobbyEnvironment(catalog: catalog, wordList: SetWordList(reads.words ?? []))
    }
}
