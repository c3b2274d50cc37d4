import Foundation
import ParlorRules
import ParlorWire
import Testing

@Suite struct ViewTests {
    static func finishedRoom() throws -> RummyRoom {
        var room = try RummyRoom.create(code: RoomCode(parsing: "A1B2C3"), pointLimit: 100, pointValue: 25, playerCount: 4,
                                        creator: user(1), playerName: "Mo", at: t0)
        _ = try room.apply(.join(playerName: "Bo"), by: user(2), at: t0)
        _ = try room.apply(.setReady(playerId: user(2), ready: true), by: user(2), at: t0)
        _ = try room.apply(.startGame, by: user(1), at: t0)
        _ = try room.apply(.submitScore(playerId: user(2), round: 1, score: 120), by: user(2), at: t0)
        _ = try room.apply(.submitScore(playerId: user(1), round: 1, score: 20), by: user(1), at: t0)
        _ = try room.apply(.nextRound, by: user(1), at: t0.adding(seconds: 600))
        return room
    }

    @Test func gameRoomUsesTheSeedsFieldNames() throws {
        let room = try Self.finishedRoom()
        let json = try parse(try WireJSON.encode(GameRoom(room)))
        #expect(Set(json.keys) == ["id", "pointLimit", "pointValue", "playerCount", "currentRound", "isStarted", "isFinished",
                                   "players", "createdAt", "createdBy", "version", "finishedAt", "results"])
        #expect(json["id"] as? String == "A1B2C3")
        #expect(json["createdAt"] as? String == "2026-01-30T12:34:56.789Z")
        #expect(json["createdBy"] as? String == user(1).rawValue)
        #expect(json["version"] as? Int == room.version)
        let players = try #require(json["players"] as? [[String: Any]])
        #expect(Set(players[0].keys) == ["id", "name", "isReady", "isModerator", "scores", "totalScore", "entered"])
        #expect(players[1]["totalScore"] as? Int == 120 && players[1]["scores"] as? [Int] == [120, 0, 0, 0, 0, 0])
        // The rounds after the first count 0 but were never entered.
        #expect(players[1]["entered"] as? [Bool] == [true, false, false, false, false, false])
        let results = try #require(json["results"] as? [String: Any])
        #expect(results["winnerId"] as? String == user(1).rawValue)
        let settlement = try #require(results["settlement"] as? [[String: Any]])
        #expect(settlement.count == 1 && settlement[0]["amount"] as? Int == 2500)
        #expect(settlement[0]["from"] as? String == user(2).rawValue && settlement[0]["to"] as? String == user(1).rawValue)
        let standings = try #require(results["standings"] as? [[String: Any]])
        #expect(Set(standings[0].keys) == ["playerId", "name", "totalScore", "rank"])
    }

    @Test func anOpenRoomHasNoResults() throws {
        let room = try RummyRoom.create(code: RoomCode(parsing: "A1B2C3"), pointLimit: 100, pointValue: 25, playerCount: 4,
                                        creator: user(1), playerName: "Mo", at: t0)
        let json = try parse(try WireJSON.encode(RoomServiceResult(room: GameRoom(room), currentUserId: user(1))))
        #expect(json["currentUserId"] as? String == user(1).rawValue)
        let roomJSON = try #require(json["room"] as? [String: Any])
        #expect(roomJSON["results"] == nil && roomJSON["finishedAt"] == nil)
        #expect((roomJSON["players"] as? [[String: Any]])?[0]["scores"] as? [Int] == [])
        #expect(GameHistoryEntry(room) == nil)
    }

    @Test func historyEntriesComeFromFinishedRooms() throws {
        let entry = try #require(GameHistoryEntry(try Self.finishedRoom()))
        #expect(entry.roomCode == "A1B2C3" && entry.finishedAt == "2026-01-30T12:44:56.789Z")
        #expect(entry.players.map(\.rank) == [1, 2] && entry.players[1].scores == [120, 0, 0, 0, 0, 0])
        let page = ListGamesResult(games: [entry], nextBefore: nil)
        #expect(try WireJSON.decode(ListGamesResult.self, from: WireJSON.encode(page)) == page)
    }

    static let words = SetWordList(["banana", "bread"])
    static let game = Game(id: "start-b", name: "Starts with B", instructions: "Go", timeLimit: 60,
                           kind: .word(letterPosition: .start, targetLetter: "B"))

    @Test func theLobbyViewCarriesNoWordsDuringARound() throws {
        var lobby = try WordLobby.create(lobbyId: "L1", code: LobbyCode(parsing: "AXDF"), creator: user(1),
                                         profile: LobbyProfile(username: "Ann", colorNumber: 1, emojiNumber: 2), at: t0)
        _ = try lobby.join(user(2), profile: LobbyProfile(username: "Bo", colorNumber: 3, emojiNumber: 4))
        _ = try lobby.startGame(.game(Self.game), by: user(1), at: t0)
        _ = try lobby.submitWord("banana", by: user(2), at: t0, wordList: Self.words)
        let during = text(try WireJSON.encode(LobbyView(lobby)))
        #expect(!during.contains("banana"))
        let json = try parse(Array(during.utf8))
        #expect(json["status"] as? String == "GAME" && json["lobbyCode"] as? String == "AXDF")
        let round = try #require(json["round"] as? [String: Any])
        #expect(round["deadline"] as? String == "2026-01-30T12:35:56.789Z")
        #expect((round["game"] as? [String: Any])?["letterPosition"] as? String == "start")
        #expect((json["players"] as? [[String: Any]])?[1]["wordCount"] as? Int == 1)

        let mine = text(try WireJSON.encode(PlayerWordsView(lobby.privateView(for: user(2)))))
        #expect(mine.contains("banana"))
        #expect(!text(try WireJSON.encode(PlayerWordsView(lobby.privateView(for: user(1))))).contains("banana"))

        _ = lobby.endRound(1, at: t0.adding(seconds: 60))
        let after = try parse(try WireJSON.encode(LobbyView(lobby)))
        #expect(after["status"] as? String == "OPEN" && after["round"] == nil)
        let last = try #require(after["lastRound"] as? [String: Any])
        let players = try #require(last["players"] as? [[String: Any]])
        #expect(players[1]["points"] as? Int == 2)
        #expect(((players[1]["words"] as? [[String: Any]])?[0])?["word"] as? String == "banana")
    }

    @Test func lobbyResultsHaveTheSeedsShape() throws {
        let created = try parse(try WireJSON.encode(CreateLobbyResult(lobbyId: "-M6wTegEBA-yki7X0kKv", lobbyCode: LobbyCode(parsing: "AXDF"))))
        #expect(created as NSDictionary == ["lobbyId": "-M6wTegEBA-yki7X0kKv", "lobbyCode": "AXDF"] as NSDictionary)
        #expect(text(try WireJSON.encode(JoinLobbyResult(lobbyId: "L1"))) == #"{"lobbyId":"L1"}"#)
        #expect(text(try WireJSON.encode(WordVerdictResult(.accept("bread")))) == #"{"accepted":true,"word":"bread"}"#)
        #expect(text(try WireJSON.encode(WordVerdictResult(.reject("x", "Nope.")))) == #"{"accepted":false,"reason":"Nope.","word":"x"}"#)
        #expect(text(try WireJSON.encode(HelloResult(userId: user(1), token: "t", resumed: false)))
                == #"{"resumed":false,"token":"t","userId":"\#(user(1).rawValue)"}"#)
        #expect(text(try WireJSON.encode(Subscribed(subscription: 3))) == #"{"subscription":3}"#)
    }

    @Test func catalogResults() throws {
        let catalog = Catalog(version: 4, updatedAt: t0, gameModes: [
            GameMode(id: "word", name: "Word", levels: [Level(id: "l", name: "L", difficulty: 1, games: [Self.game])]),
        ])
        #expect(CatalogResult(catalog, since: 4) == .unchanged(version: 4))
        #expect(CatalogResult(catalog, since: 3) == .catalog(catalog))
        #expect(CatalogResult(catalog, since: nil) == .catalog(catalog))
        #expect(text(try WireJSON.encode(CatalogResult.unchanged(version: 4))) == #"{"unchanged":true,"version":4}"#)
        let full = try WireJSON.encode(CatalogResult.catalog(catalog))
        let json = try parse(full)
        #expect(json["version"] as? Int == 4 && json["gameModes"] is [Any] && json["unchanged"] == nil)
        #expect(try WireJSON.decode(CatalogResult.self, from: full) == .catalog(catalog))
        #expect(try WireJSON.decode(CatalogResult.self, from: Array(#"{"unchanged":true,"version":4}"#.utf8)) == .unchanged(version: 4))
    }
}
