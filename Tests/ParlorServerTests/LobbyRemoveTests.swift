import Foundation
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// `removeLobbyPlayer`: the creator takes a seat away; the removed player's stream ends, the others see
/// the lobby without them.
@Suite struct LobbyRemoveTests {
    @Test func theCreatorRemovesAPlayerWhoseStreamEnds() async throws {
        try await withParlor(configure: LobbyFixture.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let lobby = try await LobbyFixture.seat(ann, [bo])
                    let sub = try await LobbyFixture.observe(bo, lobby.id)
                    let log = LobbyEventLog()
                    _ = try await log.nextLobby(bo, sub: sub) { ($0["players"] as? [Any])?.count == 2 }
                    let boId = try #require(bo.userId)
                    let removed = try await ann.call("removeLobbyPlayer", ["lobbyId": lobby.id, "userId": boId])
                    #expect(removed["result"] is NSNull, "\(removed)")
                    let annSub = try await LobbyFixture.observe(ann, lobby.id)
                    let without = try await LobbyEventLog().nextLobby(ann, sub: annSub) { ($0["players"] as? [Any])?.count == 1 }
                    #expect((without["players"] as? [[String: Any]])?.first?["username"] as? String == "Ann")
                    var ended = false
                    while !ended { ended = try await bo.nextEvent(sub: sub)["event"] as? String == "end" }
                    // The seat is gone: Bo is not a member any more.
                    #expect(try await bo.call("submitWord", ["lobbyId": lobby.id, "word": "sun"]).errorCode == "NOT_LOBBY_MEMBER")
                }
            }
        }
    }

    @Test func onlyTheCreatorRemovesAndOnlySomeoneSeated() async throws {
        try await withParlor(configure: LobbyFixture.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let lobby = try await LobbyFixture.seat(ann, [bo])
                    let annId = try #require(ann.userId)
                    let notCreator = try await bo.call("removeLobbyPlayer", ["lobbyId": lobby.id, "userId": annId])
                    #expect(notCreator.errorCode == "NOT_LOBBY_CREATOR" && notCreator.errorMessage == "Only the lobby's creator can remove a player.")
                    let ghost = "00000000-0000-4000-8000-000000000000"
                    let missing = try await ann.call("removeLobbyPlayer", ["lobbyId": lobby.id, "userId": ghost])
                    #expect(missing.errorCode == "PLAYER_NOT_FOUND" && missing.errorStatus == "not-found")
                    let oneself = try await ann.call("removeLobbyPlayer", ["lobbyId": lobby.id, "userId": annId])
                    #expect(oneself.errorCode == "INVALID_INPUT" && oneself.errorMessage == "You cannot remove yourself; leave the lobby instead.")
                    #expect(try await ann.call("removeLobbyPlayer", ["lobbyId": lobby.id, "userId": "bo"]).errorCode == "BAD_REQUEST")
                    #expect(try await ann.call("removeLobbyPlayer", ["lobbyId": "nope", "userId": ghost]).errorCode == "LOBBY_NOT_FOUND")
                }
            }
        }
    }
}
