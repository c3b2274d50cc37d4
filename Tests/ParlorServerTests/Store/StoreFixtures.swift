import Foundation
import ParlorRules
import Testing
@testable import ParlorServer

/// Values for the store tests, built through the rules' public API so they are rooms and lobbies the
/// server could really hold.
enum StoreFixtures {
    static func user(_ number: Int) -> UserID {
        UserID(String(format: "00000000-0000-4000-8000-%012d", number))!
    }

    static func code(_ number: Int) -> RoomCode {
        RoomCode(uncheckedRawValue: String(format: "R%05d", number))
    }

    static func instant(_ milliseconds: Int64) -> Instant {
        Instant(millisecondsSinceEpoch: milliseconds)
    }

    /// An open room with `players` seated (the first is the moderator).
    static func room(
        _ code: RoomCode, players: [UserID], createdAt: Instant = instant(1_000)
    ) throws -> RummyRoom {
        var room = try RummyRoom.create(
            code: code, pointLimit: 350, pointValue: 25, playerCount: max(2, players.count),
            creator: players[0], playerName: "Player 0", at: createdAt)
        for (seat, player) in players.enumerated().dropFirst() {
            _ = try room.apply(.join(playerName: "Player \(seat)"), by: player, at: createdAt)
        }
        return room
    }

    /// A started room with every player's score entered for the first round.
    static func startedRoom(_ code: RoomCode, players: [UserID], createdAt: Instant = instant(1_000)) throws -> RummyRoom {
        var room = try room(code, players: players, createdAt: createdAt)
        for player in players.dropFirst() {
            _ = try room.apply(.setReady(playerId: player, ready: true), by: player, at: createdAt)
        }
        _ = try room.apply(.startGame, by: players[0], at: createdAt)
        for (seat, player) in players.enumerated() {
            _ = try room.apply(.submitScore(playerId: player, round: 1, score: 10 + seat), by: players[0], at: createdAt)
        }
        return room
    }

    /// A room whose game has been played through all six rounds and finished at `finishedAt`.
    static func finishedRoom(
        _ code: RoomCode, players: [UserID], createdAt: Instant = instant(1_000), finishedAt: Instant
    ) throws -> RummyRoom {
        var room = try startedRoom(code, players: players, createdAt: createdAt)
        for round in 1...RummyRules.roundCount {
            for (seat, player) in players.enumerated() {
                _ = try room.apply(
                    .submitScore(playerId: player, round: round, score: (seat * 7 + round * 3) % 50),
                    by: players[0], at: createdAt)
            }
            _ = try room.apply(.nextRound, by: players[0], at: finishedAt)
        }
        precondition(room.isFinished, "the fixture game should be over after the last round")
        return room
    }

    static func lobby(id: String, code: String, players: Int = 3) throws -> WordLobby {
        var lobby = try WordLobby.create(
            lobbyId: id, code: LobbyCode(uncheckedRawValue: code), creator: user(900),
            profile: LobbyProfile(username: "Host", colorNumber: 1, emojiNumber: 2), at: instant(5_000))
        for number in 1..<players {
            _ = try lobby.join(user(900 + number), profile: LobbyProfile(username: "Guest \(number)", colorNumber: number, emojiNumber: number))
        }
        return lobby
    }

    static func catalog(version: Int) -> Catalog {
        Catalog(
            version: version, updatedAt: instant(1_700_000_000_000 + Int64(version)),
            gameModes: [GameMode(id: "mode-\(version)", name: "Mode \(version)", levels: [])])
    }

    /// A configuration that stamps rows with a fixed time, so nothing depends on the clock.
    static var configuration: SQLiteStoreConfiguration {
        var configuration = SQLiteStoreConfiguration()
        configuration.now = { instant(42) }
        return configuration
    }
}

/// A fresh directory under the system's temporary directory, removed when the body returns.
func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("parlor-store-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

/// Runs `body` and returns the `StoreError` it threw, or nil when it threw none. Any other error
/// fails the test: the store promises `StoreError` only.
func storeError(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async -> StoreError? {
    do {
        try await body()
        return nil
    } catch let error as StoreError {
        return error
    } catch {
        Issue.record("expected a StoreError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
