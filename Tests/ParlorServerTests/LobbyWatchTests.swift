import Foundation
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// `watchLobby`: a spectator without a seat follows a lobby by its code — the public view only, no
/// words during a round, no private events.
@Suite struct LobbyWatchTests {
    @Test func aSpectatorSeesThePublicViewAndNoWords() async throws {
        try await withParlor(configure: LobbyFixture.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { cy in
                    let lobby = try await LobbyFixture.create(ann)
                    let watched = try #require(try await cy.call("watchLobby", ["lobbyCode": lobby.code.lowercased()]).result)
                    #expect(watched["lobbyId"] as? String == lobby.id && watched["serverTime"] is String)
                    let sub = try #require(watched["subscription"] as? Int)
                    cy.recordsFrames = true
                    let log = LobbyEventLog()
                    _ = try await log.nextLobby(cy, sub: sub) { $0.status == "OPEN" }
                    _ = try await ann.call("startGame", ["lobbyId": lobby.id, "gameId": "word-start-s"])
                    _ = try await LobbyFixture.submit(ann, lobby.id, "swan")
                    let counted = try await log.nextLobby(cy, sub: sub) {
                        (($0["players"] as? [[String: Any]])?.first?["wordCount"] as? Int) == 1
                    }
                    #expect(counted.status == "GAME")
                    #expect(!log.frames.contains { $0["event"] as? String == "lobbyPrivate" })
                    #expect(!cy.frames.contains { $0.contains("swan") })
                    // Watching seats nobody.
                    #expect(try await cy.call("submitWord", ["lobbyId": lobby.id, "word": "salt"]).errorCode == "NOT_LOBBY_MEMBER")
                }
            }
        }
    }

    @Test func watchingNeedsALobbyAndASignIn() async throws {
        try await withParlor(configure: LobbyFixture.configure) { parlor in
            try await parlor.connect { cy in
                let missing = try await cy.call("watchLobby", ["lobbyCode": "ZZZZ"])
                #expect(missing.errorCode == "LOBBY_NOT_FOUND" && missing.errorStatus == "not-found")
                #expect(try await cy.call("watchLobby", ["lobbyCode": "AB1"]).errorCode == "INVALID_INPUT")
                #expect(try await cy.call("watchLobby", [:]).errorCode == "BAD_REQUEST")
            }
            try await parlor.connect(signIn: false) { stranger in
                let refused = try await stranger.call("watchLobby", ["lobbyCode": "ZZZZ"])
                #expect(refused.errorCode == "UNAUTHENTICATED")
            }
        }
    }
}
