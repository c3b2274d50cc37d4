import Testing
@testable import ParlorRules

/// Lobby membership: create, join, leave, validation, capacity.
@Suite struct WordLobbyTests {
    static let code = try! LobbyCode(parsing: "AXDF")

    static func profile(_ name: String, color: Int = 2, emoji: Int = 4) -> LobbyProfile {
        LobbyProfile(username: name, colorNumber: color, emojiNumber: emoji)
    }

    static func lobby(capacity: Int = 12, players: Int = 1) throws -> WordLobby {
        var lobby = try WordLobby.create(
            lobbyId: "-M6wTegEBA-yki7X0kKv", code: code, creator: user(1), profile: profile("Ann"), capacity: capacity, at: t0)
        for n in stride(from: 2, through: players, by: 1) {
            _ = try lobby.join(user(n), profile: profile("P\(n)"))
        }
        return lobby
    }

    @Test func createSeatsTheCreator() throws {
        let lobby = try Self.lobby()
        #expect(lobby.status == .open && lobby.version == 1 && lobby.capacity == 12)
        #expect(lobby.creator == user(1))
        #expect(lobby.players.map(\.username) == ["Ann"])
        #expect(lobby.round == nil && lobby.lastRound == nil)
    }

    @Test(arguments: [
        (LobbyProfile(username: " ", colorNumber: 0, emojiNumber: 0), "username"),
        (LobbyProfile(username: String(repeating: "x", count: 31), colorNumber: 0, emojiNumber: 0), "username"),
        (LobbyProfile(username: "A\u{0008}", colorNumber: 0, emojiNumber: 0), "username"),
        (LobbyProfile(username: "A", colorNumber: 16, emojiNumber: 0), "colorNumber"),
        (LobbyProfile(username: "A", colorNumber: -1, emojiNumber: 0), "colorNumber"),
        (LobbyProfile(username: "A", colorNumber: 0, emojiNumber: 64), "emojiNumber"),
    ])
    func profilesAreValidated(profile: LobbyProfile, field: String) throws {
        let error = lobbyError { _ = try WordLobby.create(lobbyId: "l", code: Self.code, creator: user(1), profile: profile, at: t0) }
        guard case .invalidArgument(let named, _) = error else {
            Issue.record("expected invalidArgument, got \(String(describing: error))")
            return
        }
        #expect(named == field)
        var lobby = try Self.lobby()
        #expect(lobbyError { _ = try lobby.join(user(2), profile: profile) } == error)
    }

    @Test func validationMessagesNameTheValue() {
        let error = lobbyError {
            _ = try WordLobby.create(lobbyId: "l", code: Self.code, creator: user(1), profile: Self.profile("A", color: 16), at: t0)
        }
        #expect(error?.message == "colorNumber must be between 0 and 15 (got 16).")
        #expect(error?.status == "invalid-argument")
        #expect(lobbyError { _ = try WordLobby.create(lobbyId: "", code: Self.code, creator: user(1), profile: Self.profile("A"), at: t0) }
                != nil)
        #expect(lobbyError { _ = try WordLobby.create(lobbyId: "l", code: Self.code, creator: user(1), profile: Self.profile("A"), capacity: 0, at: t0) }
                == .invalidArgument(field: "capacity", reason: "capacity must be between 1 and 100 (got 0)."))
    }

    @Test func joinIsIdempotentAndUpdatesTheProfile() throws {
        var lobby = try Self.lobby()
        #expect(try lobby.join(user(2), profile: Self.profile(" Bo ")) == [.playerJoined(user(2))])
        #expect(lobby.version == 2 && lobby.players[1].username == "Bo")
        #expect(try lobby.join(user(2), profile: Self.profile("Bo")).isEmpty)
        #expect(lobby.version == 2)
        #expect(try lobby.join(user(2), profile: Self.profile("Bo", emoji: 9)) == [.profileUpdated(user(2))])
        #expect(lobby.version == 3 && lobby.players.count == 2 && lobby.players[1].emojiNumber == 9)
    }

    @Test func capacityIsEnforced() throws {
        var lobby = try Self.lobby(capacity: 2, players: 2)
        #expect(lobbyError { _ = try lobby.join(user(3), profile: Self.profile("Cy")) } == .resourceExhausted(.lobbyFull(capacity: 2)))
        #expect(lobby.players.count == 2)
    }

    @Test func leavingHandsOverTheLobbyThenDeletesIt() throws {
        var lobby = try Self.lobby(players: 3)
        #expect(try lobby.leave(user(1)) == [.playerLeft(user(1)), .creatorChanged(to: user(2))])
        #expect(lobby.creator == user(2))
        #expect(try lobby.leave(user(3)) == [.playerLeft(user(3))])
        #expect(lobby.creator == user(2))
        #expect(lobbyError { _ = try lobby.leave(user(3)) } == .permissionDenied(.notMember))
        #expect(try lobby.leave(user(2)) == [.playerLeft(user(2)), .lobbyDeleted])
        #expect(lobby.players.isEmpty)
    }

    @Test func lobbiesRoundTripThroughJSON() throws {
        var lobby = try Self.lobby(players: 2)
        _ = try lobby.startGame(.game(WordRoundTests.startsWithB), by: user(1), at: t0)
        _ = try lobby.submitWord("banana", by: user(2), at: t0, wordList: WordRoundTests.words)
        let data = try JSONEncoder().encode(lobby)
        #expect(try JSONDecoder().decode(WordLobby.self, from: data) == lobby)
    }
}

import Foundation
