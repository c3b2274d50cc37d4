import Foundation
import Testing
@testable import ParlorRules

/// A match's last round finishes the lobby: winners, history, no more rounds, no newcomers.
@Suite struct WordMatchEndTests {
    static func match(rounds: Int, players: Int = 3) throws -> WordLobby {
        var lobby = try WordLobby.create(
            lobbyId: "-M6wTegEBA-yki7X0kKv", code: WordLobbyTests.code, creator: user(1), profile: WordLobbyTests.profile("Ann"),
            rounds: rounds, at: t0)
        for n in stride(from: 2, through: players, by: 1) {
            _ = try lobby.join(user(n), profile: WordLobbyTests.profile("P\(n)"))
        }
        return lobby
    }

    static let environment = WordLobbyEnvironment(catalog: WordRoundTests.catalog, wordList: WordRoundTests.words)

    /// Plays round `number` of "Starts with B" with `words[i]` from player i+1, and ends it.
    static func play(_ lobby: inout WordLobby, round number: Int, _ words: [[String]]) throws -> GameOutcome<WordLobby> {
        let start = t0.adding(seconds: 1000 * number)
        _ = try lobby.startGame(.game(WordRoundTests.startsWithB), by: user(1), at: start)
        for (index, list) in words.enumerated() {
            for word in list { _ = try lobby.submitWord(word, by: user(index + 1), at: start, wordList: WordRoundTests.words) }
        }
        return try lobby.apply(.endRound(round: number), by: .clock, at: start.adding(seconds: 60), in: environment)
    }

    @Test func theLastRoundFinishesTheMatchAndNamesTheWinner() throws {
        var lobby = try Self.match(rounds: 2)
        let first = try Self.play(&lobby, round: 1, [["banana"], ["bread", "berry"], []])
        #expect(lobby.status == .open && first.effects.isEmpty && lobby.winners.isEmpty)
        let last = try Self.play(&lobby, round: 2, [["bob"], ["banana"], []])
        #expect(lobby.status == .finished && last.events == [.roundEnded(number: 2), .matchFinished])
        #expect(lobby.winners == [user(2)] && lobby.finishedAt == t0.adding(seconds: 2060))
        let archive = GameArchive(
            key: lobby.lobbyId, players: [user(1), user(2), user(3)], finishedAt: t0.adding(seconds: 2060),
            tallies: [user(1): ["points": 4, "won": 0], user(2): ["points": 6, "won": 1], user(3): ["points": 0, "won": 0]])
        #expect(last.effects == [.archive(archive)])
        #expect(lobby.owner == nil && lobby.playing.isEmpty && lobby.mayExpire)
        let view = lobby.publicView
        #expect(view.status == .finished && view.rounds == 2 && view.winners == [user(2)])
    }

    @Test func aTieHasEveryoneOnTopAsWinners() throws {
        var lobby = try Self.match(rounds: 1, players: 2)
        _ = try Self.play(&lobby, round: 1, [["banana"], ["bread"]])
        #expect(lobby.winners == [user(1), user(2)])
    }

    @Test func aFinishedMatchPlaysNoMoreAndSeatsNobodyNew() throws {
        var lobby = try Self.match(rounds: 1)
        _ = try Self.play(&lobby, round: 1, [["banana"], [], []])
        let version = lobby.version
        #expect(lobbyError { _ = try lobby.startGame(.game(WordRoundTests.startsWithB), by: user(1), at: t0) }
                == .failedPrecondition(.matchFinished))
        #expect(lobbyError { _ = try lobby.join(user(9), profile: WordLobbyTests.profile("Late")) } == .failedPrecondition(.matchFinished))
        #expect(lobbyError { _ = try lobby.submitWord("bob", by: user(1), at: t0, wordList: WordRoundTests.words) }
                == .failedPrecondition(.roundNotRunning))
        #expect(lobby.version == version && lobby.status == .finished)
        // Members may still leave; the lobby stays finished.
        _ = try lobby.leave(user(3))
        #expect(lobby.status == .finished)
    }

    @Test func theMatchLengthIsBounded() throws {
        for rounds in [0, 51] {
            #expect(lobbyError { _ = try Self.match(rounds: rounds) }
                    == .invalidArgument(field: "rounds", reason: "rounds must be between 1 and 50 (got \(rounds))."))
        }
        #expect(try WordLobbyTests.lobby().rounds == WordRules.defaultRounds)
    }

    /// Lobbies stored before matches had a length decode without one and never finish.
    @Test func aLobbyStoredWithoutALengthPlaysOnForever() throws {
        var lobby = try Self.match(rounds: 1, players: 1)
        var json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(lobby)) as? [String: Any] ?? [:]
        json.removeValue(forKey: "rounds")
        lobby = try JSONDecoder().decode(WordLobby.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(lobby.rounds == nil)
        for number in 1...3 { _ = try Self.play(&lobby, round: number, [["banana"]]) }
        #expect(lobby.status == .open && lobby.winners.isEmpty)
    }
}
