import Foundation
import ParlorTestSupport
import ParlorRules
import Testing
@testable import ParlorServer

/// Every error status the word-lobby seed names, triggered over the wire, each with its specific code.
@Suite struct LobbyErrorTests {
    @Test func everySeedStatusOverTheWire() async throws {
        let clock = ManualClock()
        let store = FailingStore()
        try await withParlor(store: store, clock: clock, configure: {
            LobbyFixture.configure(&$0)
            $0.wordGames.lobbyCapacity = 2
        }) { parlor in
            // unauthenticated
            try await parlor.connect(signIn: false) { anonymous in
                let refused = try await anonymous.call("createLobby", ["user": LobbyFixture.user("Ann")])
                #expect(refused.errorCode == "UNAUTHENTICATED" && refused.errorStatus == "unauthenticated")
                #expect(try await anonymous.call("joinLobby", ["lobbyCode": "ABCD", "user": LobbyFixture.user("A")]).errorStatus == "unauthenticated")
                #expect(try await anonymous.call("observeLobby", ["lobbyId": "x"]).errorStatus == "unauthenticated")
            }
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    try await parlor.connect { cy in
                        // invalid-argument: missing or invalid user fields, a malformed code, an empty word.
                        let missing = try await ann.call("createLobby", [:])
                        #expect(missing.errorCode == "BAD_REQUEST" && missing.errorStatus == "invalid-argument")
                        #expect(missing.errorMessage == "args.user is missing.")
                        let noColour = try await ann.call("createLobby", ["user": ["username": "Ann", "emojiNumber": 1]])
                        #expect(noColour.errorStatus == "invalid-argument" && noColour.errorMessage?.contains("colorNumber") == true)
                        let badColour = try await ann.call("createLobby", ["user": LobbyFixture.user("Ann", color: 99)])
                        #expect(badColour.errorCode == "INVALID_INPUT" && badColour.errorStatus == "invalid-argument")
                        #expect(badColour.errorMessage?.contains("colorNumber") == true)
                        let blank = try await ann.call("createLobby", ["user": LobbyFixture.user("   ")])
                        #expect(blank.errorCode == "INVALID_INPUT" && blank.errorMessage?.contains("username") == true)
                        let longName = try await ann.call("createLobby", ["user": LobbyFixture.user(String(repeating: "n", count: 31))])
                        #expect(longName.errorCode == "INVALID_INPUT")
                        let badCode = try await bo.call("joinLobby", ["lobbyCode": "AB1", "user": LobbyFixture.user("Bo")])
                        #expect(badCode.errorCode == "INVALID_INPUT" && badCode.errorStatus == "invalid-argument")

                        // not-found
                        let lobby = try await LobbyFixture.create(ann)
                        let unknownCode = lobby.code == "ZZZZ" ? "YYYY" : "ZZZZ"
                        let noLobby = try await bo.call("joinLobby", ["lobbyCode": unknownCode, "user": LobbyFixture.user("Bo")])
                        #expect(noLobby.errorCode == "LOBBY_NOT_FOUND" && noLobby.errorStatus == "not-found")
                        #expect(try await ann.call("startGame", ["lobbyId": "no-such-lobby"]).errorCode == "LOBBY_NOT_FOUND")
                        #expect(try await ann.call("submitWord", ["lobbyId": "no-such-lobby", "word": "sun"]).errorStatus == "not-found")
                        #expect(try await ann.call("observeLobby", ["lobbyId": String(repeating: "x", count: 5000)]).errorStatus == "not-found")
                        let noGame = try await ann.call("startGame", ["lobbyId": lobby.id, "gameId": "no-such-game"])
                        #expect(noGame.errorCode == "GAME_NOT_FOUND" && noGame.errorStatus == "not-found")

                        // permission-denied
                        _ = try await bo.call("joinLobby", ["lobbyCode": lobby.code, "user": LobbyFixture.user("Bo")])
                        let notCreator = try await bo.call("startGame", ["lobbyId": lobby.id])
                        #expect(notCreator.errorCode == "NOT_LOBBY_CREATOR" && notCreator.errorStatus == "permission-denied")
                        let stranger = try await cy.call("observeLobby", ["lobbyId": lobby.id])
                        #expect(stranger.errorCode == "NOT_LOBBY_MEMBER" && stranger.errorStatus == "permission-denied")
                        #expect(try await cy.call("leaveLobby", ["lobbyId": lobby.id]).errorCode == "NOT_LOBBY_MEMBER")

                        // resource-exhausted: the lobby is full (capacity 2 here).
                        let full = try await cy.call("joinLobby", ["lobbyCode": lobby.code, "user": LobbyFixture.user("Cy")])
                        #expect(full.errorCode == "LOBBY_FULL" && full.errorStatus == "resource-exhausted")

                        // failed-precondition: no round yet; joining or starting during a round.
                        let noRound = try await ann.call("submitWord", ["lobbyId": lobby.id, "word": "sun"])
                        #expect(noRound.errorCode == "ROUND_NOT_RUNNING" && noRound.errorStatus == "failed-precondition")
                        _ = try await ann.call("startGame", ["lobbyId": lobby.id, "gameId": "word-start-s"])
                        #expect(try await ann.call("startGame", ["lobbyId": lobby.id]).errorStatus == "failed-precondition")
                        #expect(try await cy.call("submitWord", ["lobbyId": lobby.id, "word": "sun"]).errorCode == "NOT_LOBBY_MEMBER")
                        let empty = try await bo.call("submitWord", ["lobbyId": lobby.id, "word": "  "])
                        #expect(empty.errorCode == "INVALID_INPUT" && empty.errorStatus == "invalid-argument")
                        let long = try await bo.call("submitWord", ["lobbyId": lobby.id, "word": String(repeating: "s", count: 65)])
                        #expect(long.errorStatus == "invalid-argument")

                        // internal: the store cannot save. Nothing changes; the round end is retried.
                        store.failsLobbyWrites = true
                        let unsaved = try await bo.call("submitWord", ["lobbyId": lobby.id, "word": "sun"])
                        #expect(unsaved.errorCode == "INTERNAL" && unsaved.errorStatus == "internal")
                        #expect(try await bo.call("createLobby", ["user": LobbyFixture.user("Bo")]).errorStatus == "internal")
                        // After the deadline, before the round end is saved: failed-precondition.
                        clock.advance(bySeconds: 90)
                        let afterDeadline = try await bo.call("submitWord", ["lobbyId": lobby.id, "word": "sun"])
                        #expect(afterDeadline.errorCode == "ROUND_NOT_RUNNING" && afterDeadline.errorStatus == "failed-precondition")
                        #expect(afterDeadline.errorMessage == "The round's time is up.")
                        store.failsLobbyWrites = false
                        let sub = try await LobbyFixture.observe(ann, lobby.id)
                        let log = LobbyEventLog()
                        #expect(try await log.nextLobby(ann, sub: sub) { _ in true }.status == "GAME")
                        clock.advance(bySeconds: 1)
                        #expect(try await log.nextLobby(ann, sub: sub) { $0.lastRoundNumber == 1 }.status == "OPEN")
                    }
                }
            }
        }
    }

    @Test func codesRunOutWhenTheCodeSpaceIsExhausted() async throws {
        try await withParlor(configure: {
            LobbyFixture.configure(&$0)
            $0.wordGames.lobbyCodes = CodeSpace(alphabet: "Q", length: 4)  // exactly one code: QQQQ
        }) { parlor in
            try await parlor.connect { ann in
                let lobby = try await LobbyFixture.create(ann)
                #expect(lobby.code == "QQQQ")
                let second = try await ann.call("createLobby", ["user": LobbyFixture.user("Ann")])
                #expect(second.errorCode == "NO_FREE_CODE" && second.errorStatus == "resource-exhausted")
                // Leaving deletes the lobby and frees its code.
                _ = try await ann.call("leaveLobby", ["lobbyId": lobby.id])
                #expect(try await LobbyFixture.create(ann).code == "QQQQ")
            }
        }
    }

    @Test func lobbiesAndWordsAreBounded() async throws {
        let clock = ManualClock()
        try await withParlor(clock: clock, configure: {
            LobbyFixture.configure(&$0)
            $0.wordGames.maxLobbies = 1
            $0.limits.requestBurst = 2000
            $0.limits.requestsPerSecond = 2000
        }) { parlor in
            try await parlor.connect { ann in
                let lobby = try await LobbyFixture.create(ann)
                let second = try await ann.call("createLobby", ["user": LobbyFixture.user("Ann")])
                #expect(second.errorCode == "NO_FREE_CODE" && second.errorStatus == "resource-exhausted")
                _ = try await ann.call("startGame", ["lobbyId": lobby.id, "gameId": "word-start-s"])
                for n in 0..<WordRules.maxWordsPerRound {
                    _ = try await LobbyFixture.submit(ann, lobby.id, "s" + Self.letters(n))
                }
                let tooMany = try await ann.call("submitWord", ["lobbyId": lobby.id, "word": "sapphire"])
                #expect(tooMany.errorCode == "TOO_MANY_WORDS" && tooMany.errorStatus == "resource-exhausted")
            }
        }
    }

    /// Distinct letters-only spellings of `n`: 0 → "a", 25 → "z", 26 → "ba", …
    static func letters(_ n: Int) -> String {
        var n = n
        var out = ""
        repeat {
            out = String(UnicodeScalar(UInt8(ascii: "a") + UInt8(n % 26))) + out
            n /= 26
        } while n > 0
        return out
    }
}
