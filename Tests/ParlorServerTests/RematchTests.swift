import Foundation
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// `rematchRoom`: the moderator of a finished room starts a new one with the same seats; everyone
/// following the old room is told its code; asking again (or at once) answers the same code.
@Suite struct RematchTests {
    @Test func theModeratorStartsARematchAndTheOldRoomSaysWhere() async throws {
        try await withParlor { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    try await parlor.connect(signIn: false) { spectator in
                        let old = try await HistoryTests.finishRoom(ann, bo)
                        let observed = try await spectator.call("observeRoom", ["code": old])
                        let sub = try #require(observed.result?["subscription"] as? Int)
                        _ = try await spectator.nextEvent(sub: sub)

                        // Two at once (Ann on two connections) get the same rematch.
                        let (first, second) = try await parlor.connect(token: ann.token) { annAgain in
                            async let first = ann.call("rematchRoom", ["roomCode": old])
                            let second = try await annAgain.call("rematchRoom", ["roomCode": old.lowercased()])
                            return (try await first.result?["code"] as? String, second.result?["code"] as? String)
                        }
                        let code = try #require(first)
                        #expect(second == code && code != old)

                        var told: [String: Any] = [:]
                        while told["rematch"] == nil {
                            told = try #require(try await spectator.nextEvent(sub: sub)["data"] as? [String: Any])
                        }
                        #expect(told["rematch"] as? String == code && told["isFinished"] as? Bool == true)

                        let room = try #require(try await bo.call("getRoom", ["code": code]).result)
                        let players = try #require(room["players"] as? [[String: Any]])
                        #expect(players.map { $0["name"] as? String } == ["Ann", "Guest0"])
                        #expect(players.map { $0["id"] as? String } == [ann.userId, bo.userId])
                        #expect(players.map { $0["isModerator"] as? Bool } == [true, false])
                        #expect(players.map { $0["isReady"] as? Bool } == [true, false])
                        #expect(room["isStarted"] as? Bool == false && room["pointLimit"] as? Int == 100 && room["playerCount"] as? Int == 2)
                        #expect(room["rematch"] == nil)

                        // Later asks answer the same code; Bo can play on in the new room.
                        #expect(try await ann.call("rematchRoom", ["roomCode": old]).result?["code"] as? String == code)
                        let ready = try await bo.call("setReady", ["roomCode": code, "playerId": bo.userId!, "ready": true])
                        #expect(ready.result?["version"] != nil)
                    }
                }
            }
        }
    }

    @Test func onlyTheModeratorOfAFinishedRoom() async throws {
        try await withParlor { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let running = try await RoomFlowTests.seat(ann, [bo], capacity: 2)
                    let early = try await ann.call("rematchRoom", ["roomCode": running])
                    #expect(early.errorCode == "INVALID_STATE" && early.errorMessage == "The game is not over yet; a rematch starts once it is.")
                    let finished = try await HistoryTests.finishRoom(ann, bo)
                    let notModerator = try await bo.call("rematchRoom", ["roomCode": finished])
                    #expect(notModerator.errorCode == "NOT_MODERATOR" && notModerator.errorStatus == "permission-denied")
                    #expect(try await ann.call("rematchRoom", ["roomCode": "ZZZZZ9"]).errorCode == "ROOM_NOT_FOUND")
                    #expect(try await ann.call("rematchRoom", ["roomCode": "AB"]).errorCode == "INVALID_ROOM_CODE")
                    #expect(try await ann.call("rematchRoom", [:]).errorCode == "BAD_REQUEST")
                }
            }
            try await parlor.connect(signIn: false) { stranger in
                let refused = try await stranger.call("rematchRoom", ["roomCode": "ZZZZZ9"])
                #expect(refused.errorCode == "UNAUTHENTICATED")
            }
        }
    }

    @Test func theCreatorOfAFinishedMatchStartsARematchLobby() async throws {
        let clock = ManualClock()
        try await withParlor(clock: clock, configure: LobbyFixture.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let created = try await ann.call("createLobby", ["user": LobbyFixture.user("Ann"), "rounds": 1])
                    let lobbyId = try #require(created.result?["lobbyId"] as? String)
                    let oldCode = try #require(created.result?["lobbyCode"] as? String)
                    _ = try await bo.call("joinLobby", ["lobbyCode": oldCode, "user": LobbyFixture.user("Bo", color: 5, emoji: 9)])
                    let early = try await ann.call("rematchLobby", ["lobbyId": lobbyId])
                    #expect(early.errorCode == "LOBBY_NOT_FINISHED" && early.errorMessage == "The match is not over yet; a rematch starts once it is.")
                    _ = try await ann.call("startGame", ["lobbyId": lobbyId, "gameId": "word-start-s"])
                    await eventually { clock.sleeperCount >= 1 }
                    clock.advance(bySeconds: 90)
                    await parlor.services.timers.settled()
                    let sub = try await LobbyFixture.observe(bo, lobbyId)

                    #expect(try await bo.call("rematchLobby", ["lobbyId": lobbyId]).errorCode == "NOT_LOBBY_CREATOR")
                    let code = try #require(try await ann.call("rematchLobby", ["lobbyId": lobbyId]).result?["code"] as? String)
                    #expect(code != oldCode && code.count == 4)
                    let told = try await LobbyEventLog().nextLobby(bo, sub: sub) { $0["rematch"] != nil }
                    #expect(told["rematch"] as? String == code && told.status == "FINISHED")
                    #expect(try await ann.call("rematchLobby", ["lobbyId": lobbyId]).result?["code"] as? String == code)

                    // Bo is seated there with his profile: joining again is coming back.
                    let again = try await bo.call("joinLobby", ["lobbyCode": code, "user": LobbyFixture.user("Bo", color: 5, emoji: 9)])
                    let newId = try #require(again.result?["lobbyId"] as? String)
                    let newSub = try await LobbyFixture.observe(bo, newId)
                    let seated = try await LobbyEventLog().nextLobby(bo, sub: newSub) { _ in true }
                    let players = try #require(seated["players"] as? [[String: Any]])
                    #expect(players.map { $0["username"] as? String } == ["Ann", "Bo"] && players.map { $0["colorNumber"] as? Int } == [3, 5])
                    #expect(seated.status == "OPEN" && seated["rounds"] as? Int == 1 && seated.version == 2)
                }
            }
        }
    }

    /// The rematch's code is part of the stored room: after a restart the old room still says where.
    @Test func theRematchIsStoredWithTheOldRoom() async throws {
        let store = InMemoryStore()
        let (old, code) = try await withParlor(store: store) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let old = try await HistoryTests.finishRoom(ann, bo)
                    let code = try #require(try await ann.call("rematchRoom", ["roomCode": old]).result?["code"] as? String)
                    return (old, code)
                }
            }
        }
        try await withParlor(store: store) { parlor in
            try await parlor.connect(signIn: false) { spectator in
                let room = try await spectator.call("getRoom", ["code": old])
                #expect(room.result?["rematch"] as? String == code)
            }
        }
    }
}
