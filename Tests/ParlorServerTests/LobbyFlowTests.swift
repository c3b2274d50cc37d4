import Foundation
import Logging
import ParlorTestSupport
import ParlorRules
import Testing
@testable import ParlorServer

/// Word lobbies over real sockets, on a manual clock: rounds start, take words, end at their deadline
/// with nobody sending anything, score, and survive a restart.
@Suite struct LobbyFlowTests {
    @Test func fourPlayersPlayAFullRound() async throws {
        let clock = ManualClock()
        try await withParlor(clock: clock, configure: LobbyFixture.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    try await parlor.connect { cy in
                        try await parlor.connect { di in
                            let players = [ann, bo, cy, di]
                            let lobby = try await LobbyFixture.seat(ann, [bo, cy, di])
                            #expect(lobby.code.count == 4 && lobby.code.allSatisfy { $0.isUppercase })
                            let logs = (0..<4).map { _ in LobbyEventLog() }
                            var subs: [Int] = []
                            for player in players { subs.append(try await LobbyFixture.observe(player, lobby.id)) }
                            for index in players.indices {
                                let view = try await logs[index].nextLobby(players[index], sub: subs[index]) { _ in true }
                                #expect(view.status == "OPEN" && (view["players"] as? [[String: Any]])?.count == 4)
                                #expect(view["lobbyCode"] as? String == lobby.code && view["serverTime"] is String)
                                let first = try #require((view["players"] as? [[String: Any]])?.first)
                                #expect(first["username"] as? String == "Ann" && first["colorNumber"] as? Int == 3)
                                #expect(first["emojiNumber"] as? Int == 7 && first["isCreator"] as? Bool == true)
                            }

                            let started = try await ann.call("startGame", ["lobbyId": lobby.id, "gameId": "word-start-s"])
                            #expect(started["result"] is NSNull)
                            let deadline = clock.now.adding(seconds: 90)
                            for index in players.indices {
                                let view = try await logs[index].nextLobby(players[index], sub: subs[index]) { $0.status == "GAME" }
                                let round = try #require(view["round"] as? [String: Any])
                                #expect(round["number"] as? Int == 1 && round["deadline"] as? String == deadline.iso8601)
                                let game = try #require(round["game"] as? [String: Any])
                                #expect(game["id"] as? String == "word-start-s" && game["targetLetter"] as? String == "S")
                                #expect(game["letterPosition"] as? String == "start" && game["timeLimit"] as? Int == 90)
                            }

                            #expect(try await LobbyFixture.submit(ann, lobby.id, "sapphire")["accepted"] as? Bool == true)
                            #expect(try await LobbyFixture.submit(ann, lobby.id, "sun")["accepted"] as? Bool == true)
                            let repeated = try await LobbyFixture.submit(ann, lobby.id, "Sun")
                            #expect(repeated["accepted"] as? Bool == false && repeated["reason"] as? String == "\"Sun\" was already submitted.")
                            let wrongLetter = try await LobbyFixture.submit(ann, lobby.id, "bread")
                            #expect(wrongLetter["accepted"] as? Bool == false && wrongLetter["reason"] as? String == "\"bread\" does not start with \"S\".")
                            let notAWord = try await LobbyFixture.submit(ann, lobby.id, "sxyzzy")
                            #expect(notAWord["accepted"] as? Bool == false && (notAWord["reason"] as? String)?.contains("word list") == true)
                            for word in ["sun", "sea", "salt"] {
                                #expect(try await LobbyFixture.submit(bo, lobby.id, word)["accepted"] as? Bool == true)
                            }
                            #expect(try await LobbyFixture.submit(cy, lobby.id, "Sea")["accepted"] as? Bool == true)
                            let trimmed = try await LobbyFixture.submit(cy, lobby.id, "  sand ")
                            #expect(trimmed["word"] as? String == "sand" && trimmed["accepted"] as? Bool == true)

                            // Nobody sends anything more: the server's clock ends the round.
                            clock.advance(to: deadline)
                            for index in players.indices {
                                let view = try await logs[index].nextLobby(players[index], sub: subs[index]) { $0.lastRoundNumber == 1 }
                                #expect(view.status == "OPEN" && view["round"] == nil)
                                let results = try #require((view["lastRound"] as? [String: Any])?["players"] as? [[String: Any]])
                                #expect(results.map { $0["points"] as? Int } == [3, 4, 3, 0])
                                #expect(results.map { $0["total"] as? Int } == [3, 4, 3, 0])
                                #expect(results[0].words.map { $0["word"] as? String } == ["sapphire", "sun", "bread", "sxyzzy"])
                                #expect(results[0].words.map { $0["points"] as? Int } == [2, 1, 0, 0])
                                #expect(results[2].words.map { $0["points"] as? Int } == [1, 2])
                                #expect((view["players"] as? [[String: Any]])?.map { $0["score"] as? Int } == [3, 4, 3, 0])
                            }
                            let late = try await ann.call("submitWord", ["lobbyId": lobby.id, "word": "star"])
                            #expect(late.errorCode == "ROUND_NOT_RUNNING" && late.errorStatus == "failed-precondition")
                        }
                    }
                }
            }
        }
    }

    @Test func privateWordsNeverReachAnotherPlayerBeforeTheRoundEnds() async throws {
        let clock = ManualClock()
        try await withParlor(clock: clock, configure: LobbyFixture.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let lobby = try await LobbyFixture.seat(ann, [bo])
                    let annSub = try await LobbyFixture.observe(ann, lobby.id)
                    let boSub = try await LobbyFixture.observe(bo, lobby.id)
                    let annLog = LobbyEventLog()
                    let boLog = LobbyEventLog()
                    _ = try await ann.call("startGame", ["lobbyId": lobby.id, "gameId": "word-start-s"])
                    _ = try await LobbyFixture.submit(ann, lobby.id, "sapphire")
                    _ = try await LobbyFixture.submit(ann, lobby.id, "swan")
                    _ = try await LobbyFixture.submit(bo, lobby.id, "salt")

                    // Ann's own stream shows her words; Bo's shows his, and only a count of Ann's.
                    let annWords = try await annLog.nextPrivate(ann, sub: annSub) { $0.words.count == 2 }
                    #expect(annWords.words.map { $0["word"] as? String } == ["sapphire", "swan"])
                    #expect(annWords["userId"] as? String == ann.userId && annWords["round"] as? Int == 1)
                    // Each version's public frame comes first, then the subscriber's own.
                    let counts = try await boLog.nextLobby(bo, sub: boSub) { view in
                        (view["players"] as? [[String: Any]])?.map { $0["wordCount"] as? Int } == [2, 1]
                    }
                    #expect(counts.status == "GAME")
                    let boWords = try await boLog.nextPrivate(bo, sub: boSub) { $0.words.count == 1 }
                    #expect(boWords.words.first?["word"] as? String == "salt")
                    let duringRound = boLog.texts
                    #expect(!duringRound.isEmpty)
                    #expect(duringRound.allSatisfy { !$0.contains("sapphire") && !$0.contains("swan") })
                    #expect(boLog.frames.filter { $0["event"] as? String == "lobbyPrivate" }
                        .allSatisfy { ($0["data"] as? [String: Any])?["userId"] as? String == bo.userId })
                    #expect(annLog.texts.allSatisfy { !$0.contains("salt") })

                    // Once the round is over, everyone's words are revealed to all.
                    clock.advance(bySeconds: 90)
                    let ended = try await boLog.nextLobby(bo, sub: boSub) { $0.lastRoundNumber == 1 }
                    let annResult = try #require(((ended["lastRound"] as? [String: Any])?["players"] as? [[String: Any]])?.first)
                    #expect(annResult.words.map { $0["word"] as? String } == ["sapphire", "swan"])
                    let cleared = try await boLog.nextPrivate(bo, sub: boSub) { $0["round"] == nil }
                    #expect(cleared.words.isEmpty)
                }
            }
        }
    }

    @Test func aRoundEndsOnTimeWithNobodyConnected() async throws {
        let clock = ManualClock()
        try await withParlor(clock: clock, configure: LobbyFixture.configure) { parlor in
            let (lobby, token) = try await parlor.connect { ann in
                let lobby = try await LobbyFixture.create(ann)
                _ = try await ann.call("startGame", ["lobbyId": lobby.id, "gameId": "word-start-s"])
                _ = try await LobbyFixture.submit(ann, lobby.id, "sapphire")
                return (lobby, ann.token!)
            }
            // Everyone is gone; only the clock moves.
            clock.advance(bySeconds: 90)
            try await parlor.connect(token: token) { ann in
                let sub = try await LobbyFixture.observe(ann, lobby.id)
                let log = LobbyEventLog()
                let view = try await log.nextLobby(ann, sub: sub) { $0.lastRoundNumber == 1 }
                #expect(view.status == "OPEN")
                let result = try #require(((view["lastRound"] as? [String: Any])?["players"] as? [[String: Any]])?.first)
                #expect(result["points"] as? Int == 2 && result.words.first?["word"] as? String == "sapphire")
            }
        }
    }

    @Test func roundsFollowTheCatalogAndLateFriendsJoinBetweenThem() async throws {
        let clock = ManualClock()
        try await withParlor(clock: clock, configure: LobbyFixture.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let lobby = try await LobbyFixture.create(ann)
                    let sub = try await LobbyFixture.observe(ann, lobby.id)
                    let log = LobbyEventLog()
                    // No game named: the catalog's first game, then the next.
                    _ = try await ann.call("startGame", ["lobbyId": lobby.id])
                    let first = try await log.nextLobby(ann, sub: sub) { $0.status == "GAME" }
                    #expect(((first["round"] as? [String: Any])?["game"] as? [String: Any])?["id"] as? String == "word-start-s")
                    let again = try await ann.call("startGame", ["lobbyId": lobby.id])
                    #expect(again.errorCode == "LOBBY_NOT_OPEN" && again.errorStatus == "failed-precondition")
                    let tooLate = try await bo.call("joinLobby", ["lobbyCode": lobby.code, "user": LobbyFixture.user("Bo")])
                    #expect(tooLate.errorCode == "LOBBY_NOT_OPEN" && tooLate.errorStatus == "failed-precondition")
                    clock.advance(bySeconds: 90)
                    _ = try await log.nextLobby(ann, sub: sub) { $0.lastRoundNumber == 1 }

                    // Between rounds the lobby is open again: Bo joins (code typed in lowercase), twice.
                    for _ in 0..<2 {
                        let joined = try await bo.call("joinLobby", ["lobbyCode": lobby.code.lowercased(), "user": LobbyFixture.user("Bo")])
                        #expect(joined.result?["lobbyId"] as? String == lobby.id)
                    }
                    let seated = try await log.nextLobby(ann, sub: sub) { ($0["players"] as? [Any])?.count == 2 }
                    #expect(seated.status == "OPEN")
                    #expect(try await bo.call("startGame", ["lobbyId": lobby.id]).errorCode == "NOT_LOBBY_CREATOR")
                    _ = try await ann.call("startGame", ["lobbyId": lobby.id])
                    let second = try await log.nextLobby(ann, sub: sub) { $0.roundNumber == 2 }
                    #expect(((second["round"] as? [String: Any])?["game"] as? [String: Any])?["id"] as? String == "word-start-b")
                    #expect(try await LobbyFixture.submit(bo, lobby.id, "banana")["accepted"] as? Bool == true)
                    clock.advance(bySeconds: 90)
                    let ended = try await log.nextLobby(ann, sub: sub) { $0.lastRoundNumber == 2 }
                    #expect((ended["players"] as? [[String: Any]])?.map { $0["score"] as? Int } == [0, 2])
                    // A category game by id: answers from the bank, case-insensitively.
                    _ = try await ann.call("startGame", ["lobbyId": lobby.id, "gameId": "category-fruits"])
                    #expect(try await LobbyFixture.submit(bo, lobby.id, " BANANA ")["accepted"] as? Bool == true)
                    #expect(try await LobbyFixture.submit(bo, lobby.id, "Sapphire")["accepted"] as? Bool == false)
                }
            }
        }
    }

    @Test func leavingHandsTheLobbyOverAndTheLastOneOutDeletesIt() async throws {
        try await withParlor(configure: LobbyFixture.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let lobby = try await LobbyFixture.seat(ann, [bo])
                    let annSub = try await LobbyFixture.observe(ann, lobby.id)
                    let boSub = try await LobbyFixture.observe(bo, lobby.id)
                    #expect(try await ann.call("leaveLobby", ["lobbyId": lobby.id])["result"] is NSNull)
                    // The leaver's stream ends; the heir is the creator now.
                    while try await ann.nextEvent(sub: annSub)["event"] as? String != "end" {}
                    let boLog = LobbyEventLog()
                    let handed = try await boLog.nextLobby(bo, sub: boSub) { ($0["players"] as? [Any])?.count == 1 }
                    #expect(handed["creator"] as? String == bo.userId)
                    #expect(try await ann.call("observeLobby", ["lobbyId": lobby.id]).errorCode == "NOT_LOBBY_MEMBER")
                    _ = try await bo.call("startGame", ["lobbyId": lobby.id, "gameId": "word-start-s"])
                    #expect(try await bo.call("leaveLobby", ["lobbyId": lobby.id])["result"] is NSNull)
                    // The last one out deletes it: observers get null, then the end.
                    var sawNull = false
                    while true {
                        let event = try await bo.nextEvent(sub: boSub)
                        if event["event"] as? String == "lobby", event["data"] is NSNull { sawNull = true }
                        if event["event"] as? String == "end" { break }
                    }
                    #expect(sawNull)
                    let gone = try await ann.call("joinLobby", ["lobbyCode": lobby.code, "user": LobbyFixture.user("Ann")])
                    #expect(gone.errorCode == "LOBBY_NOT_FOUND" && gone.errorStatus == "not-found")
                    #expect(try await bo.call("submitWord", ["lobbyId": lobby.id, "word": "sun"]).errorCode == "LOBBY_NOT_FOUND")
                    #expect(parlor.services.lobbyDirectory.count == 0)
                }
            }
        }
    }

    @Test func abandonedLobbiesBetweenRoundsExpire() async throws {
        let clock = ManualClock()
        try await withParlor(clock: clock, configure: {
            LobbyFixture.configure(&$0)
            // One-player lobbies: the long expiry, as for any lobby (the short one is ExpiryTests').
            $0.unjoinedGameExpiry = .hours(24)
        }) { parlor in
            let abandoned = try await parlor.connect { try await LobbyFixture.create($0) }
            let playing = try await parlor.connect { ann in
                let lobby = try await LobbyFixture.create(ann)
                _ = try await ann.call("startGame", ["lobbyId": lobby.id, "gameId": "category-us-states"])  // 120 s
                return lobby
            }
            try await parlor.connect { present in
                let occupied = try await LobbyFixture.create(present)
                clock.advance(bySeconds: 23 * 3600)
                // The playing lobby's round ended when the clock jumped (its timer fired at the new time):
                // it is between rounds now, so only the recency of that change keeps it below.
                await parlor.services.timers.settled()
                let ended = try await #require(parlor.services.lobbyDirectory.lobby(id: playing.id)).current().0
                #expect(ended.status == .open && ended.lastRound?.endedAt == clock.now)
                #expect(await parlor.services.expireAbandonedLobbies() == 0)
                clock.advance(bySeconds: 2 * 3600)
                // Too recent a change to expire the playing lobby; nothing else is due.
                await parlor.services.timers.settled()
                #expect(await parlor.services.expireAbandonedLobbies() == 1)
                #expect(parlor.services.lobbyDirectory.lobby(id: abandoned.id) == nil)
                #expect(parlor.services.lobbyDirectory.lobby(id: occupied.id) != nil)
                #expect(parlor.services.lobbyDirectory.lobby(id: playing.id) != nil)
                let gone = try await present.call("joinLobby", ["lobbyCode": abandoned.code, "user": LobbyFixture.user("Cy")])
                #expect(gone.errorCode == "LOBBY_NOT_FOUND")
            }
        }
    }

    @Test func lobbiesAndDeadlinesSurviveARestart() async throws {
        let store = InMemoryStore()
        let clock = ManualClock()
        let (running, due, token) = try await withParlor(store: store, clock: clock, configure: LobbyFixture.configure) { parlor in
            try await parlor.connect { ann in
                let running = try await LobbyFixture.create(ann)
                _ = try await ann.call("startGame", ["lobbyId": running.id, "gameId": "word-start-s"])  // 90 s
                _ = try await LobbyFixture.submit(ann, running.id, "sapphire")
                let due = try await LobbyFixture.create(ann)
                _ = try await ann.call("startGame", ["lobbyId": due.id, "gameId": "word-lightning-start-p"])  // 30 s
                return (running, due, ann.token!)
            }
        }
        // Down for 45 s: one deadline passed meanwhile, the other has not come yet.
        clock.advance(bySeconds: 45)
        try await withParlor(store: store, clock: clock, configure: LobbyFixture.configure) { parlor in
            try await parlor.connect(token: token) { ann in
                try await Self.checkRestored(ann, clock: clock, running: running, due: due)
            }
        }
    }

    /// The same over the SQLite store that `parlor-server` runs on by default.
    @Test func lobbiesAndDeadlinesSurviveARestartOnTheSQLiteStore() async throws {
        try await withTemporaryDirectory { directory in
            let clock = ManualClock()
            let first = try SQLiteStore(directory: directory)
            let (running, due, token) = try await withParlor(store: first, clock: clock, configure: LobbyFixture.configure) { parlor in
                try await parlor.connect { ann in
                    let running = try await LobbyFixture.create(ann)
                    _ = try await ann.call("startGame", ["lobbyId": running.id, "gameId": "word-start-s"])  // 90 s
                    _ = try await LobbyFixture.submit(ann, running.id, "sapphire")
                    let due = try await LobbyFixture.create(ann)
                    _ = try await ann.call("startGame", ["lobbyId": due.id, "gameId": "word-lightning-start-p"])  // 30 s
                    return (running, due, ann.token!)
                }
            }
            await first.close()
            clock.advance(bySeconds: 45)
            let second = try SQLiteStore(directory: directory)
            try await withParlor(store: second, clock: clock, configure: LobbyFixture.configure) { parlor in
                try await parlor.connect(token: token) { ann in
                    try await Self.checkRestored(ann, clock: clock, running: running, due: due)
                }
            }
            await second.close()
        }
    }

    /// After the restart. (A separate function: with these closures nested in the test above, the
    /// Swift 6.3.1 debug build called the wrong closure as `nextPrivate`'s predicate.)
    static func checkRestored(
        _ ann: JSONConnection, clock: ManualClock, running: (id: String, code: String), due: (id: String, code: String)
    ) async throws {
        let dueSub = try await LobbyFixture.observe(ann, due.id)
        let dueLog = LobbyEventLog()
        #expect(try await dueLog.nextLobby(ann, sub: dueSub) { $0.lastRoundNumber == 1 }.status == "OPEN")

        let sub = try await LobbyFixture.observe(ann, running.id)
        let log = LobbyEventLog()
        let restored = try await log.nextLobby(ann, sub: sub) { _ in true }
        #expect(restored.status == "GAME" && restored["lobbyCode"] as? String == running.code)
        let words = try await log.nextPrivate(ann, sub: sub) { _ in true }
        #expect(words.words.first?["word"] as? String == "sapphire")
        #expect(try await LobbyFixture.submit(ann, running.id, "swan")["accepted"] as? Bool == true)
        clock.advance(bySeconds: 45)
        let ended = try await log.nextLobby(ann, sub: sub) { $0.lastRoundNumber == 1 }
        #expect((ended["players"] as? [[String: Any]])?.first?["score"] as? Int == 4)
        // The code still finds the lobby.
        let rejoined = try await ann.call("joinLobby", ["lobbyCode": running.code, "user": LobbyFixture.user("Ann")])
        #expect(rejoined.result?["lobbyId"] as? String == running.id)
    }
}
