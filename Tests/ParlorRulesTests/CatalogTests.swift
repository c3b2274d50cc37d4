import Foundation
import Testing
@testable import ParlorRules

@Suite struct CatalogTests {
    static let starterURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/ParlorServer/Games/WordLobby/Catalog/starter-catalog.json")

    static func starter() throws -> Catalog {
        try JSONDecoder().decode(Catalog.self, from: Data(contentsOf: starterURL))
    }

    @Test func theStarterCatalogIsValidAndComplete() throws {
        let catalog = try Self.starter()
        #expect(catalog.validate() == [])
        #expect(catalog.gameModes.map(\.name) == ["Word", "Category"])
        for mode in catalog.gameModes {
            #expect(mode.levels.count >= 3)
            #expect(mode.levels.map(\.difficulty) == mode.levels.map(\.difficulty).sorted())
            for level in mode.levels {
                #expect(level.games.count >= 4, "\(level.id)")
                for game in level.games {
                    switch game.kind {
                    case .word: #expect(mode.id == "word", "\(game.id)")
                    case .category(let bank):
                        #expect(mode.id == "category", "\(game.id)")
                        #expect(bank.count >= 24, "\(game.id) has only \(bank.count) answers")
                    case .unknown: Issue.record("\(game.id) has an unknown type")
                    }
                }
            }
        }
        let positions = Set(catalog.playOrder.compactMap { game -> String? in
            if case .word(let position, _) = game.kind { position.rawValue } else { nil }
        })
        #expect(positions == ["start", "end", "contains"])
        #expect(Set(catalog.playOrder.map(\.timeLimit)).count >= 3)
    }

    @Test func catalogsRoundTripInTheSeedShape() throws {
        let catalog = try Self.starter()
        let data = try JSONEncoder().encode(catalog)
        #expect(try JSONDecoder().decode(Catalog.self, from: data) == catalog)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["updatedAt"] as? String == "2026-01-30T00:00:00.000Z")
        let modes = try #require(json["gameModes"] as? [[String: Any]])
        let firstGame = try #require(((modes[0]["levels"] as? [[String: Any]])?[0]["games"] as? [[String: Any]])?[0])
        #expect(Set(firstGame.keys) == ["id", "name", "description", "instructions", "timeLimit", "caseSensitive", "type", "letterPosition", "targetLetter"])
        #expect(firstGame["type"] as? String == "word")
    }

    @Test func lookupAndPlayOrder() throws {
        let catalog = try Self.starter()
        #expect(catalog.game(withID: "category-us-states")?.name == "US States")
        #expect(catalog.game(withID: "nope") == nil)
        #expect(catalog.playOrder.first?.id == "word-start-s")
        #expect(catalog.playOrder.count == catalog.gameModes.reduce(0) { $0 + $1.levels.reduce(0) { $0 + $1.games.count } })
    }

    static let broken = #"""
    {"version": 0, "updatedAt": "2026-01-30T00:00:00Z", "gameModes": [
      {"id": "word", "name": "Word", "description": "", "levels": [
        {"id": "l1", "name": "", "description": "", "difficulty": 6, "games": [
          {"id": "g1", "name": "A", "description": "", "instructions": "", "timeLimit": 5, "caseSensitive": false,
           "type": "word", "letterPosition": "middle", "targetLetter": "ab"},
          {"id": "g1", "name": "B", "description": "", "instructions": "", "timeLimit": 60, "caseSensitive": false,
           "type": "picture"}
        ]}
      ]},
      {"id": "word", "name": "Category", "description": "", "levels": [
        {"id": "l1", "name": "One", "description": "", "difficulty": 1, "games": [
          {"id": "c1", "name": "C", "description": "", "instructions": "", "timeLimit": 601, "caseSensitive": false,
           "type": "category", "answerBank": ["Apple", " apple ", "", "Pear"]},
          {"id": "c2", "name": "D", "description": "", "instructions": "", "timeLimit": 60, "caseSensitive": true,
           "type": "category", "answerBank": []},
          {"id": "c3", "name": "E", "description": "", "instructions": "", "timeLimit": 60, "caseSensitive": true,
           "type": "category", "answerBank": ["Co", "CO", "Co"]}
        ]},
        {"id": "l3", "name": "Empty", "description": "", "difficulty": 2, "games": []}
      ]}
    ]}
    """#

    @Test func aBrokenCatalogReportsEveryProblemWithItsPath() throws {
        let catalog = try JSONDecoder().decode(Catalog.self, from: Data(Self.broken.utf8))
        let problems = catalog.validate().map(\.description)
        #expect(problems == [
            "version: must be at least 1 (got 0)",
            "gameModes[0].levels[0].name: must not be empty",
            "gameModes[0].levels[0].difficulty: must be between 1 and 5 (got 6)",
            "gameModes[0].levels[0].games[0].timeLimit: must be between 10 and 600 seconds (got 5)",
            "gameModes[0].levels[0].games[0].letterPosition: must be \"start\", \"end\" or \"contains\" (got \"middle\")",
            "gameModes[0].levels[0].games[0].targetLetter: must be a single letter A-Z (got \"ab\")",
            "gameModes[0].levels[0].games[1].id: \"g1\" is already used at gameModes[0].levels[0].games[0]",
            "gameModes[0].levels[0].games[1].type: must be \"word\" or \"category\" (got \"picture\")",
            "gameModes[1].id: \"word\" is already used at gameModes[0]",
            "gameModes[1].levels[0].id: \"l1\" is already used at gameModes[0].levels[0]",
            "gameModes[1].levels[0].games[0].timeLimit: must be between 10 and 600 seconds (got 601)",
            "gameModes[1].levels[0].games[0].answerBank[1]: duplicates gameModes[1].levels[0].games[0].answerBank[0] (\" apple \")",
            "gameModes[1].levels[0].games[0].answerBank[2]: must not be empty",
            "gameModes[1].levels[0].games[1].answerBank: must not be empty",
            "gameModes[1].levels[0].games[2].answerBank[2]: duplicates gameModes[1].levels[0].games[2].answerBank[0] (\"Co\")",
            "gameModes[1].levels[1].games: must not be empty",
        ])
    }

    @Test func limitsAreInjectable() throws {
        var limits = CatalogLimits()
        limits.maxAnswersPerGame = 10
        let problems = try Self.starter().validate(limits: limits)
        #expect(problems.contains { $0.path == "gameModes[1].levels[0].games[0].answerBank" && $0.message.contains("at most 10 answers") })
    }

    @Test func unknownTypesAndPositionsDecodeSoTheyCanBeReported() throws {
        let json = #"{"id":"x","name":"X","timeLimit":60,"type":"word","letterPosition":"middle","targetLetter":"a"}"#
        let game = try JSONDecoder().decode(Game.self, from: Data(json.utf8))
        #expect(game.kind == .word(letterPosition: .unknown("middle"), targetLetter: "a"))
        #expect(game.caseSensitive == false && game.description == "")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Game.self, from: Data(#"{"id":"x","name":"X","timeLimit":60,"type":"word"}"#.utf8))
        }
    }
}
