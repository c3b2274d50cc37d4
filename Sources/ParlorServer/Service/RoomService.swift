import Logging
import ParlorRules
import ParlorWire

/// The rummy operations, shared by the WebSocket session and the HTTP routes. Each takes the signed-in
/// caller (never a client-supplied claim of who is calling) and returns the encoded result, or throws
/// the wire error the client sees.
struct RoomService: Sendable {
    let directory: RoomDirectory
    let environment: RoomEnvironment

    func createRoom(_ args: CreateRoomArguments, by caller: UserID) async throws(WireError) -> EncodedJSON {
        let code = try directory.reserveCode()
        let room: RummyRoom
        do {
            room = try RummyRoom.create(
                code: code, pointLimit: args.pointLimit, pointValue: args.pointValue, playerCount: args.playerCount,
                creator: caller, playerName: args.playerName, at: environment.clock.now)
        } catch {
            directory.release(code)
            throw WireError(error)
        }
        do {
            try await environment.store.saveRoom(room)
        } catch {
            directory.release(code)
            throw environment.storeFailure(error, operation: "create room \(code)")
        }
        let actor: RoomActor
        do {
            actor = try RoomActor(room: room, environment: environment)
        } catch {
            directory.release(code)
            throw error
        }
        directory.install(actor)
        return Self.roomServiceResult(EncodedJSON(gameRoomOf: room), caller: caller)
    }

    func joinRoom(_ args: JoinRoomArguments, by caller: UserID) async throws(WireError) -> EncodedJSON {
        let actor = try room(args.code)
        switch try await actor.perform(.join(playerName: args.playerName), by: caller) {
        case .room(_, let encoded):
            return Self.roomServiceResult(encoded, caller: caller)
        case .deleted:
            throw WireError(RoomError.roomNotFound(code: args.code))
        }
    }

    func setReady(_ args: SetReadyArguments, by caller: UserID) async throws(WireError) -> EncodedJSON {
        try await roomResult(args.roomCode, .setReady(playerId: args.playerId, ready: args.ready), by: caller)
    }

    func startGame(roomCode: String, by caller: UserID) async throws(WireError) -> EncodedJSON {
        try await roomResult(roomCode, .startGame, by: caller)
    }

    func submitScore(_ args: SubmitScoreArguments, by caller: UserID) async throws(WireError) -> EncodedJSON {
        try await roomResult(args.roomCode, .submitScore(playerId: args.playerId, round: args.round, score: args.score), by: caller)
    }

    func nextRound(roomCode: String, by caller: UserID) async throws(WireError) -> EncodedJSON {
        try await roomResult(roomCode, .nextRound, by: caller)
    }

    /// `leaveRoom` answers null; leaving may delete the room.
    func leaveRoom(_ args: LeaveRoomArguments, by caller: UserID) async throws(WireError) -> EncodedJSON {
        _ = try await room(args.roomCode).perform(.leave(playerId: args.playerId), by: caller)
        return .null
    }

    /// Anyone may read a room (the seed: "anyone can read room, for QR join").
    func getRoom(code: String) async throws(WireError) -> EncodedJSON {
        try await room(code).current().1
    }

    func observe(code: String, user: UserID?) async throws(WireError) -> FeedSubscription {
        try await room(code).subscribe(user: user)
    }

    /// A user's finished games, newest first. Only your own: a history names other rooms and sums of
    /// money, and a user id is visible to anyone who has watched a room.
    func listGames(_ args: ListGamesArguments, by caller: UserID) async throws(WireError) -> EncodedJSON {
        let user = args.userId ?? caller
        guard user == caller else {
            throw WireError(.forbidden, "You can list only your own games.")
        }
        if args.before != nil && args.beforeInstant == nil {
            throw WireError(.invalidInput, "before must be an ISO-8601 timestamp such as 2026-01-30T18:00:00.000Z.")
        }
        let limit = args.effectiveLimit
        let rooms: [RummyRoom]
        do {
            rooms = try await environment.store.finishedGames(of: user, before: args.beforeInstant, limit: limit)
        } catch {
            throw environment.storeFailure(error, operation: "list games of \(user)")
        }
        let games = rooms.compactMap(GameHistoryEntry.init)
        let nextBefore = games.count == limit ? games.last?.finishedAt : nil
        return try encode(ListGamesResult(games: games, nextBefore: nextBefore))
    }

    // MARK: Helpers

    private func room(_ rawCode: String) throws(WireError) -> RoomActor {
        let code: RoomCode
        do {
            code = try RoomCode(validating: rawCode)
        } catch {
            throw WireError(error)
        }
        guard let actor = directory.room(code) else { throw WireError(RoomError.roomNotFound(code: code.rawValue)) }
        return actor
    }

    private func roomResult(_ code: String, _ action: RummyAction, by caller: UserID) async throws(WireError) -> EncodedJSON {
        switch try await room(code).perform(action, by: caller) {
        case .room(_, let encoded): return encoded
        case .deleted: throw WireError(RoomError.roomNotFound(code: code))
        }
    }

    /// `{"currentUserId": …, "room": …}` around a room view already encoded.
    private static func roomServiceResult(_ room: EncodedJSON, caller: UserID) -> EncodedJSON {
        var json = JSONWriter(capacity: room.bytes.count + 64)
        json.beginObject()
        json.field("currentUserId", caller.rawValue)
        json.key("room")
        json.raw(room)
        json.endObject()
        return json.encoded
    }

    private func encode(_ value: some Encodable) throws(WireError) -> EncodedJSON {
        do {
            return try EncodedJSON(value)
        } catch {
            throw WireError.internalError("The reply could not be encoded.")
        }
    }
}
