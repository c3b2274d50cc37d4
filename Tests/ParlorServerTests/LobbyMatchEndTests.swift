import Foundation
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// A lobby's match ends over the wire: the last round's end finishes it with its winners, files it in
/// the players' history, and refuses more rounds and newcomers; and the system's proper nouns are not
/// words.
@Suite struct LobbyMatchEndTests {
    @Test func theLastRoundEndsTheMatchWithAWinner() async throws {
        let store = InMemoryStore()
        let clock = ManualClock()
        try await withParlor(store: store, clock: clock, configure: LobbyFixture.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let created = try await ann.call("createLobby", ["user": LobbyFixture.user("Ann"), "rounds": 1])
                    let lobbyId = try #require(created.result?["lobbyId"] as? String)
                    let code = try #require(created.result?["lobbyCode"] as? String)
                    _ = try await bo.call("joinLobby", ["lobbyCode": code, "user": LobbyFixture.user("Bo")])
                    let sub = try await LobbyFixture.observe(bo, lobbyId)
                    let log = LobbyEventLog()
                    let open = try await log.nextLobby(bo, sub: sub) { $0.status == "OPEN" }
                    #expect(open["rounds"] as? Int == 1 && open["winners"] == nil)
                    _ = try await ann.call("startGame", ["lobbyId": lobbyId, "gameId": "word-start-s"])
                    _ = try await LobbyFixture.submit(ann, lobbyId, "swan")
                    _ = try await LobbyFixture.submit(ann, lobbyId, "salt")
                    _ = try await LobbyFixture.submit(bo, lobbyId, "swan")
                    await eventually { clock.sleeperCount >= 1 }
                    clock.advance(bySeconds: 90)
                    await parlor.services.timers.settled()
                    let finished = try await log.nextLobby(bo, sub: sub) { $0.status == "FINISHED" }
                    #expect(finished["winners"] as? [String] == [ann.userId].compactMap { $0 })
                    #expect(finished["finishedAt"] is String && finished.lastRoundNumber == 1)

                    let again = try await ann.call("startGame", ["lobbyId": lobbyId])
                    #expect(again.errorCode == "LOBBY_FINISHED" && again.errorStatus == "failed-precondition")
                    #expect(again.errorMessage == "The match is over; the creator can start a rematch.")
                    try await parlor.connect { cy in
                        let late = try await cy.call("joinLobby", ["lobbyCode": code, "user": LobbyFixture.user("Cy")])
                        #expect(late.errorCode == "LOBBY_FINISHED")
                    }
                    let annId = try #require(ann.userId)
                    let filed = try await store.history(WordLobbyGame.kind, of: try #require(UserID(annId)), before: nil, limit: 10)
                    #expect(filed.count == 1)
                }
            }
        }
    }

    @Test func aMatchLengthOutOfRangeIsRefused() async throws {
        try await withParlor(configure: LobbyFixture.configure) { parlor in
            try await parlor.connect { ann in
                for rounds in [0, 51] {
                    let refused = try await ann.call("createLobby", ["user": LobbyFixture.user("Ann"), "rounds": rounds])
                    #expect(refused.errorCode == "INVALID_INPUT" && refused.errorMessage?.contains("rounds must be between 1 and 50") == true)
                }
                let mistyped = try await ann.call("createLobby", ["user": LobbyFixture.user("Ann"), "rounds": "five"])
                #expect(mistyped.errorCode == "BAD_REQUEST")
            }
        }
    }

    /// "Paris" in the list is a name; "paris" is refused as not a word.
    @Test func properNounsInTheListAreNotWords() async throws {
        let path = try LobbyWordListTests.temporaryFile("Paris\npirate\nZürich\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await withParlor(configure: { configuration in
            configuration.wordGames.wordList = .file(path)
            configuration.wordGames.catalogPollInterval = nil
        }) { parlor in
            try await parlor.connect { ann in
                let lobby = try await LobbyFixture.create(ann)
                _ = try await ann.call("startGame", ["lobbyId": lobby.id, "gameId": "word-lightning-start-p"])
                let paris = try await LobbyFixture.submit(ann, lobby.id, "paris")
                #expect(paris["accepted"] as? Bool == false && paris["reason"] as? String == "\"paris\" is not in the word list.")
                let pirate = try await LobbyFixture.submit(ann, lobby.id, "pirate")
                #expect(pirate["accepted"] as? Bool == true)
            }
        }
    }
}
