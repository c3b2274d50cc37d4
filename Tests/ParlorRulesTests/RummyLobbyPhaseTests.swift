import Testing
@testable import ParlorRules

/// Creating, joining, readying and starting a rummy room.
@Suite struct RummyLobbyPhaseTests {
    static let code = try! RoomCode(parsing: "A1B2C3")

    static func room(capacity: Int = 4, pointLimit: Int = 100, pointValue: Int = 10) throws -> RummyRoom {
        try RummyRoom.create(
            code: code, pointLimit: pointLimit, pointValue: pointValue, playerCount: capacity,
            creator: user(1), playerName: "Mo", at: t0)
    }

    /// A room with `count` players (user 1 is the moderator), everyone ready.
    static func readyRoom(players count: Int, capacity: Int = 10, pointLimit: Int = 100) throws -> RummyRoom {
        var room = try room(capacity: capacity, pointLimit: pointLimit)
        for n in 2...max(2, count) where n <= count {
            _ = try room.apply(.join(playerName: "P\(n)"), by: user(n), at: t0)
            _ = try room.apply(.setReady(playerId: user(n), ready: true), by: user(n), at: t0)
        }
        return room
    }

    @Test func createSeatsTheModeratorReady() throws {
        let room = try Self.room()
        #expect(room.version == 1)
        #expect(room.currentRound == 1 && !room.isStarted && !room.isFinished)
        #expect(room.players == [RummyPlayer(id: user(1), name: "Mo", isReady: true, isModerator: true)])
        #expect(room.createdBy == user(1) && room.createdAt == t0)
        #expect(room.players[0].scores.isEmpty)
    }

    @Test(arguments: [
        (99, 10, 4, "pointLimit", "pointLimit must be between 100 and 350 (got 99)."),
        (351, 10, 4, "pointLimit", "pointLimit must be between 100 and 350 (got 351)."),
        (100, 0, 4, "pointValue", "pointValue must be between 1 and 1000000 (got 0)."),
        (100, 1_000_001, 4, "pointValue", "pointValue must be between 1 and 1000000 (got 1000001)."),
        (100, 10, 1, "playerCount", "playerCount must be between 2 and 10 (got 1)."),
        (100, 10, 11, "playerCount", "playerCount must be between 2 and 10 (got 11)."),
    ])
    func createValidatesSettings(limit: Int, value: Int, count: Int, field: String, message: String) {
        let error = roomError {
            _ = try RummyRoom.create(code: Self.code, pointLimit: limit, pointValue: value, playerCount: count,
                                     creator: user(1), playerName: "Mo", at: t0)
        }
        #expect(error == .invalidInput(field: field, reason: message))
        #expect(error?.message == message)
    }

    @Test(arguments: ["", "   ", String(repeating: "a", count: 51), "Mo\u{0000}", "Mo\u{001B}[31m"])
    func createValidatesTheName(name: String) {
        let error = roomError {
            _ = try RummyRoom.create(code: Self.code, pointLimit: 100, pointValue: 1, playerCount: 2,
                                     creator: user(1), playerName: name, at: t0)
        }
        guard case .invalidInput(let field, _) = error else {
            Issue.record("expected invalidInput, got \(String(describing: error))")
            return
        }
        #expect(field == "playerName")
    }

    @Test func namesCountCharactersNotBytes() throws {
        let fifty = String(repeating: "🃏", count: 50)
        let room = try RummyRoom.create(code: Self.code, pointLimit: 100, pointValue: 1, playerCount: 2,
                                        creator: user(1), playerName: " \(fifty) ", at: t0)
        #expect(room.players[0].name == fifty)
    }

    @Test func joinAddsAnUnreadySeatAndBumpsVersion() throws {
        var room = try Self.room()
        #expect(try room.apply(.join(playerName: " Bo "), by: user(2), at: t0) == [.playerJoined(user(2))])
        #expect(room.version == 2)
        #expect(room.players[1] == RummyPlayer(id: user(2), name: "Bo", isReady: false, isModerator: false))
    }

    @Test func joiningTwiceChangesNothing() throws {
        var room = try Self.room()
        _ = try room.apply(.join(playerName: "Bo"), by: user(2), at: t0)
        let before = room
        #expect(try room.apply(.join(playerName: "Other"), by: user(2), at: t0).isEmpty)
        #expect(try room.apply(.join(playerName: "Mo"), by: user(1), at: t0).isEmpty)
        #expect(room == before)
    }

    @Test func capacityIsEnforced() throws {
        var room = try Self.room(capacity: 2)
        _ = try room.apply(.join(playerName: "Bo"), by: user(2), at: t0)
        let error = roomError { _ = try room.apply(.join(playerName: "Cy"), by: user(3), at: t0) }
        #expect(error == .roomFull(code: Self.code, capacity: 2))
        #expect(error?.message == "Room A1B2C3 is full (2 of 2 seats).")
        #expect(room.version == 2)
    }

    @Test func joinAfterStartIsInvalidState() throws {
        var room = try Self.readyRoom(players: 2)
        _ = try room.apply(.startGame, by: user(1), at: t0)
        expectRoomError(.invalidState) { _ = try room.apply(.join(playerName: "Late"), by: user(9), at: t0) }
        #expect(try room.apply(.join(playerName: "x"), by: user(2), at: t0).isEmpty)
    }

    @Test func joinRejectsBadNames() throws {
        var room = try Self.room()
        expectRoomError(.invalidInput) { _ = try room.apply(.join(playerName: String(repeating: "b", count: 51)), by: user(2), at: t0) }
        #expect(room.players.count == 1)
    }

    @Test func setReadyOwnSeatAndNoOps() throws {
        var room = try Self.room()
        _ = try room.apply(.join(playerName: "Bo"), by: user(2), at: t0)
        #expect(try room.apply(.setReady(playerId: user(2), ready: true), by: user(2), at: t0) == [.readyChanged(user(2), isReady: true)])
        #expect(room.version == 3)
        #expect(try room.apply(.setReady(playerId: user(2), ready: true), by: user(2), at: t0).isEmpty)
        #expect(room.version == 3)
        _ = try room.apply(.setReady(playerId: user(2), ready: false), by: user(2), at: t0)
        #expect(room.version == 4 && room.players[1].isReady == false)
    }

    @Test func setReadyForOthersNeedsTheModerator() throws {
        var room = try Self.room()
        _ = try room.apply(.join(playerName: "Bo"), by: user(2), at: t0)
        _ = try room.apply(.join(playerName: "Cy"), by: user(3), at: t0)
        expectRoomError(.notModerator) { _ = try room.apply(.setReady(playerId: user(3), ready: true), by: user(2), at: t0) }
        expectRoomError(.notModerator) { _ = try room.apply(.setReady(playerId: user(3), ready: true), by: user(9), at: t0) }
        expectRoomError(.playerNotFound) { _ = try room.apply(.setReady(playerId: user(9), ready: true), by: user(9), at: t0) }
        expectRoomError(.playerNotFound) { _ = try room.apply(.setReady(playerId: user(8), ready: true), by: user(1), at: t0) }
        #expect(try room.apply(.setReady(playerId: user(3), ready: true), by: user(1), at: t0) == [.readyChanged(user(3), isReady: true)])
    }

    @Test func theModeratorIsAlwaysReady() throws {
        var room = try Self.room()
        #expect(try room.apply(.setReady(playerId: user(1), ready: true), by: user(1), at: t0).isEmpty)
        expectRoomError(.invalidState) { _ = try room.apply(.setReady(playerId: user(1), ready: false), by: user(1), at: t0) }
        #expect(room.players[0].isReady && room.version == 1)
    }

    @Test func startGameInitialisesScores() throws {
        var room = try Self.readyRoom(players: 3)
        let version = room.version
        #expect(try room.apply(.startGame, by: user(1), at: t0) == [.gameStarted])
        #expect(room.isStarted && room.version == version + 1)
        #expect(room.players.allSatisfy { $0.scores == [0, 0, 0, 0, 0, 0] })
        expectRoomError(.invalidState) { _ = try room.apply(.startGame, by: user(1), at: t0) }
        expectRoomError(.invalidState) { _ = try room.apply(.setReady(playerId: user(2), ready: false), by: user(2), at: t0) }
    }

    @Test func startGameChecksModeratorPlayersAndReadiness() throws {
        var alone = try Self.room()
        let tooFew = roomError { _ = try alone.apply(.startGame, by: user(1), at: t0) }
        #expect(tooFew == .invalidState(reason: "At least 2 players are needed to start (the room has 1)."))

        var room = try Self.room()
        _ = try room.apply(.join(playerName: "Bo"), by: user(2), at: t0)
        _ = try room.apply(.join(playerName: "Cy"), by: user(3), at: t0)
        expectRoomError(.notModerator) { _ = try room.apply(.startGame, by: user(2), at: t0) }
        expectRoomError(.notModerator) { _ = try room.apply(.startGame, by: user(9), at: t0) }
        let notReady = roomError { _ = try room.apply(.startGame, by: user(1), at: t0) }
        #expect(notReady == .invalidState(reason: "Not all players are ready; waiting for Bo, Cy."))
        #expect(!room.isStarted)
    }
}
