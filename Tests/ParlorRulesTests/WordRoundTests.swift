import Foundation
import Testing
@testable import ParlorRules

/// Rounds on a hand-driven clock: start, submit, deadline, end, scoring, views.
@Suite struct WordRoundTests {
    static let words = SetWordList(["banana", "bread", "bob", "berry", "apple", "secretword"])
    static let startsWithB = Game(id: "start-b", name: "Starts with B", timeLimit: 60,
                                  kind: .word(letterPosition: .start, targetLetter: "B"))
    static let fruits = Game(id: "fruits", name: "Fruits", timeLimit: 30, kind: .category(answerBank: ["Apple", "Banana", "Cherry"]))
    static let catalog = Catalog(version: 1, updatedAt: t0, gameModes: [
        GameMode(id: "word", name: "Word", levels: [Level(id: "l1", name: "One", difficulty: 1, games: [startsWithB])]),
        GameMode(id: "category", name: "Category", levels: [Level(id: "l2", name: "Two", difficulty: 1, games: [fruits])]),
    ])

    static func running(players: Int = 3, game: Game = startsWithB) throws -> WordLobby {
        var lobby = try WordLobbyTests.lobby(players: players)
        _ = try lobby.startGame(.game(game), by: user(1), at: t0)
        return lobby
    }

    @Test func startGameStartsARoundAndAsksForATimer() throws {
        var lobby = try WordLobbyTests.lobby(players: 2)
        let effect = try lobby.startGame(.game(Self.startsWithB), by: user(1), at: t0)
        let deadline = t0.adding(seconds: 60)
        #expect(effect == .scheduleRoundEnd(round: 1, at: deadline))
        #expect(lobby.status == .game && lobby.version == 3)
        #expect(lobby.round?.number == 1 && lobby.round?.startedAt == t0 && lobby.round?.deadline == deadline)
        #expect(lobbyError { _ = try lobby.startGame(.game(Self.startsWithB), by: user(1), at: t0) } == .failedPrecondition(.lobbyNotOpen))
    }

    @Test func onlyTheCreatorStarts() throws {
        var lobby = try WordLobbyTests.lobby(players: 2)
        #expect(lobbyError { _ = try lobby.startGame(.game(Self.startsWithB), by: user(2), at: t0) }
                == .permissionDenied(.notCreator(action: "start a round")))
        #expect(lobbyError { _ = try lobby.startGame(.game(Self.startsWithB), by: user(9), at: t0) } == .permissionDenied(.notMember))
        #expect(lobby.status == .open && lobby.version == 2)
    }

    @Test func noOneJoinsDuringARoundButMembersMayRejoin() throws {
        var lobby = try Self.running()
        #expect(lobbyError { _ = try lobby.join(user(9), profile: WordLobbyTests.profile("Late")) } == .failedPrecondition(.lobbyNotOpen))
        #expect(try lobby.join(user(2), profile: WordLobbyTests.profile("P2")).isEmpty)
    }

    @Test func catalogChoicesFollowThePlayOrder() throws {
        var lobby = try WordLobbyTests.lobby()
        _ = try lobby.startGame(.next(in: Self.catalog), by: user(1), at: t0)
        #expect(lobby.round?.game.id == "start-b")
        _ = lobby.endRound(1, at: t0.adding(seconds: 60))
        _ = try lobby.startGame(.next(in: Self.catalog), by: user(1), at: t0.adding(seconds: 61))
        #expect(lobby.round?.game.id == "fruits" && lobby.round?.number == 2)
        _ = lobby.endRound(2, at: t0.adding(seconds: 100))
        _ = try lobby.startGame(.next(in: Self.catalog), by: user(1), at: t0.adding(seconds: 101))
        #expect(lobby.round?.game.id == "start-b")
        _ = lobby.endRound(3, at: t0.adding(seconds: 200))
        #expect(lobbyError { _ = try lobby.startGame(.byID("nope", in: Self.catalog), by: user(1), at: t0) } == .notFound(.game(id: "nope")))
        _ = try lobby.startGame(.byID("fruits", in: Self.catalog), by: user(1), at: t0.adding(seconds: 201))
        #expect(lobby.round?.game.id == "fruits" && lobby.nextGameIndex == 2)
        var empty = try WordLobbyTests.lobby()
        let none = Catalog(version: 1, updatedAt: t0, gameModes: [])
        #expect(lobbyError { _ = try empty.startGame(.next(in: none), by: user(1), at: t0) } == .failedPrecondition(.noGamesAvailable))
    }

    @Test func submitWordReturnsVerdictsAndRecordsThem() throws {
        var lobby = try Self.running()
        let v = lobby.version
        #expect(try lobby.submitWord(" banana ", by: user(2), at: t0, wordList: Self.words) == .accept("banana"))
        #expect(try lobby.submitWord("apple", by: user(2), at: t0, wordList: Self.words).accepted == false)
        #expect(lobby.version == v + 2)
        let repeated = try lobby.submitWord("BANANA", by: user(2), at: t0, wordList: Self.words)
        #expect(repeated == .reject("BANANA", "\"BANANA\" was already submitted."))
        #expect(lobby.version == v + 2)
        #expect(lobby.privateView(for: user(2)).words.map(\.word) == ["banana", "apple"])
        #expect(lobby.privateView(for: user(3)).words.isEmpty)
    }

    @Test func submitWordPreconditions() throws {
        var open = try WordLobbyTests.lobby(players: 2)
        #expect(lobbyError { _ = try open.submitWord("bob", by: user(2), at: t0, wordList: Self.words) } == .failedPrecondition(.roundNotRunning))
        var lobby = try Self.running()
        #expect(lobbyError { _ = try lobby.submitWord("bob", by: user(9), at: t0, wordList: Self.words) } == .permissionDenied(.notMember))
        #expect(lobbyError { _ = try lobby.submitWord("   ", by: user(2), at: t0, wordList: Self.words) }
                == .invalidArgument(field: "word", reason: "word must not be empty."))
        #expect(lobbyError { _ = try lobby.submitWord(String(repeating: "b", count: 65), by: user(2), at: t0, wordList: Self.words) }
                == .invalidArgument(field: "word", reason: "word must be at most 64 characters (got 65)."))
        let deadline = t0.adding(seconds: 60)
        #expect(try lobby.submitWord("bob", by: user(2), at: deadline.adding(milliseconds: -1), wordList: Self.words).accepted)
        #expect(lobbyError { _ = try lobby.submitWord("bread", by: user(2), at: deadline, wordList: Self.words) } == .failedPrecondition(.deadlinePassed))
    }

    @Test func wordsPerRoundAreBounded() throws {
        var lobby = try Self.running(players: 1)
        for n in 0..<WordRules.maxWordsPerRound {
            _ = try lobby.submitWord("b" + Self.letters(n), by: user(1), at: t0, wordList: Self.words)
        }
        #expect(lobby.round?.entries.first?.verdicts.count == 500)
        #expect(lobbyError { _ = try lobby.submitWord("bqqqq", by: user(1), at: t0, wordList: Self.words) }
                == .resourceExhausted(.tooManyWords(limit: 500)))
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

    @Test func endRoundWaitsForTheDeadlineAndIsIdempotent() throws {
        var lobby = try Self.running()
        let deadline = t0.adding(seconds: 60)
        #expect(lobby.endRound(1, at: deadline.adding(milliseconds: -1)).isEmpty)
        #expect(lobby.endRound(2, at: deadline).isEmpty)
        #expect(lobby.status == .game)
        let v = lobby.version
        #expect(lobby.endRound(1, at: deadline) == [.roundEnded(number: 1)])
        #expect(lobby.status == .open && lobby.round == nil && lobby.version == v + 1)
        #expect(lobby.endRound(1, at: deadline.adding(seconds: 5)).isEmpty)
        #expect(lobby.version == v + 1)
        // A stale timer for round 1 must not end round 2.
        _ = try lobby.startGame(.game(Self.startsWithB), by: user(1), at: deadline)
        #expect(lobby.endRound(1, at: deadline.adding(seconds: 120)).isEmpty)
        #expect(lobby.status == .game && lobby.round?.number == 2)
    }

    @Test func scoringGivesTwoForUniqueAndOneForSharedWords() throws {
        var lobby = try Self.running()
        _ = try lobby.submitWord("banana", by: user(1), at: t0, wordList: Self.words)
        _ = try lobby.submitWord("bread", by: user(1), at: t0, wordList: Self.words)
        _ = try lobby.submitWord("Banana", by: user(2), at: t0, wordList: Self.words)
        _ = try lobby.submitWord("berry", by: user(2), at: t0, wordList: Self.words)
        _ = try lobby.submitWord("bzzz", by: user(2), at: t0, wordList: Self.words)
        _ = try lobby.submitWord("bzzz", by: user(3), at: t0, wordList: Self.words)
        _ = lobby.endRound(1, at: t0.adding(seconds: 60))
        let results = try #require(lobby.lastRound)
        #expect(results.players.map(\.points) == [3, 3, 0])
        #expect(results.result(for: user(2))?.words.map(\.points) == [1, 2, 0])
        #expect(lobby.players.map(\.score) == [3, 3, 0])
        // Scores carry over into the next round's totals.
        _ = try lobby.startGame(.game(Self.startsWithB), by: user(1), at: t0.adding(seconds: 61))
        _ = try lobby.submitWord("bob", by: user(3), at: t0.adding(seconds: 62), wordList: Self.words)
        _ = lobby.endRound(2, at: t0.adding(seconds: 121))
        #expect(lobby.lastRound?.players.map(\.total) == [3, 3, 2])
        #expect(lobby.players.map(\.score) == [3, 3, 2])
    }

    @Test func caseSensitiveGamesScoreDifferentCasesApart() throws {
        let symbols = Game(id: "sym", name: "Symbols", timeLimit: 30, caseSensitive: true, kind: .category(answerBank: ["Co", "Fe"]))
        var lobby = try Self.running(players: 2, game: symbols)
        _ = try lobby.submitWord("Co", by: user(1), at: t0, wordList: Self.words)
        _ = try lobby.submitWord("Co", by: user(2), at: t0, wordList: Self.words)
        _ = try lobby.submitWord("Fe", by: user(2), at: t0, wordList: Self.words)
        _ = lobby.endRound(1, at: t0.adding(seconds: 30))
        #expect(lobby.lastRound?.players.map(\.points) == [1, 3])
    }

    @Test func leavingMidRoundDropsThePlayersWords() throws {
        var lobby = try Self.running()
        _ = try lobby.submitWord("banana", by: user(1), at: t0, wordList: Self.words)
        _ = try lobby.submitWord("banana", by: user(2), at: t0, wordList: Self.words)
        _ = try lobby.leave(user(2))
        _ = lobby.endRound(1, at: t0.adding(seconds: 60))
        #expect(lobby.lastRound?.players.map(\.points) == [2, 0])
    }

    @Test func thePublicViewHidesEveryWordUntilTheRoundEnds() throws {
        var lobby = try Self.running(game: Self.fruits)
        _ = try lobby.submitWord("Banana", by: user(2), at: t0, wordList: Self.words)
        _ = try lobby.submitWord("secretword", by: user(2), at: t0, wordList: Self.words)
        let during = try encodeJSON(lobby.publicView)
        #expect(!during.contains("Banana") && !during.contains("secretword"))
        #expect(!during.contains("Cherry"), "the answer bank is secret too")
        #expect(lobby.publicView.players.map(\.wordCount) == [0, 2, 0])
        #expect(lobby.publicView.round?.game.name == "Fruits")
        #expect(try encodeJSON(lobby.privateView(for: user(2))).contains("secretword"))
        #expect(!(try encodeJSON(lobby.privateView(for: user(3)))).contains("secretword"))
        _ = lobby.endRound(1, at: t0.adding(seconds: 30))
        let after = try encodeJSON(lobby.publicView)
        #expect(after.contains("Banana") && after.contains("secretword"))
        #expect(lobby.publicView.players.allSatisfy { $0.wordCount == nil })
    }
}
