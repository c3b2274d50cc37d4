import ParlorRules

/// What `parlor lobby games --json` prints: the catalog's modes, levels and games as the server sends
/// them, but a category game's answer bank only counted (`answerCount`) — the answers are what the
/// players have to find, and a listing is for choosing a game.
struct CatalogListing: Encodable {
    let event = "games"
    let version: Int
    let gameModes: [Mode]

    init(_ catalog: Catalog) {
        version = catalog.version
        gameModes = catalog.gameModes.map { mode in
            Mode(id: mode.id, name: mode.name, levels: mode.levels.map { level in
                Level(id: level.id, name: level.name, difficulty: level.difficulty, games: level.games.map(Entry.init))
            })
        }
    }

    struct Mode: Encodable {
        let id: String
        let name: String
        let levels: [Level]
    }

    struct Level: Encodable {
        let id: String
        let name: String
        let difficulty: Int
        let games: [Entry]
    }

    struct Entry: Encodable {
        let id: String
        let name: String
        let description: String
        let timeLimit: Int
        let type: String
        let letterPosition: String?
        let targetLetter: String?
        let answerCount: Int?

        init(_ game: Game) {
            id = game.id
            name = game.name
            description = game.description
            timeLimit = game.timeLimit
            type = game.kind.typeName
            switch game.kind {
            case .word(let position, let letter):
                (letterPosition, targetLetter, answerCount) = (position.description, letter, nil)
            case .category(let bank):
                (letterPosition, targetLetter, answerCount) = (nil, nil, bank.count)
            case .unknown:
                (letterPosition, targetLetter, answerCount) = (nil, nil, nil)
            }
        }
    }
}
