import ParlorRules
import ParlorWire

// The rummy room operations (seed `rummy-room-api.md`), typed.

extension ParlorClient {
    /// Creates a room with the caller as moderator in the first seat.
    public func createRoom(
        pointLimit: Int, pointValue: Int, playerCount: Int, playerName: String
    ) async throws(ParlorClientError) -> RoomServiceResult {
        try await call(Operation.createRoom, CreateRoomArguments(
            pointLimit: pointLimit, pointValue: pointValue, playerCount: playerCount, playerName: playerName))
    }

    /// Takes a seat (or returns the one the caller already has).
    public func joinRoom(code: String, playerName: String) async throws(ParlorClientError) -> RoomServiceResult {
        try await call(Operation.joinRoom, JoinRoomArguments(code: code, playerName: playerName))
    }

    /// Sets a player's ready flag; `playerId` nil means the caller's own.
    public func setReady(roomCode: String, playerId: UserID? = nil, ready: Bool) async throws(ParlorClientError) -> GameRoom {
        let player = try await resolve(playerId)
        return try await call(Operation.setReady, SetReadyArguments(roomCode: roomCode, playerId: player, ready: ready))
    }

    /// Starts the game (moderator only).
    public func startGame(roomCode: String) async throws(ParlorClientError) -> GameRoom {
        try await call(Operation.startRoomGame, RoomCodeArguments(roomCode: roomCode))
    }

    /// Leaves the room (`playerId` nil: the caller) or, as moderator, removes another player.
    public func leaveRoom(roomCode: String, playerId: UserID? = nil) async throws(ParlorClientError) {
        let player = try await resolve(playerId)
        _ = try await call(Operation.leaveRoom, LeaveRoomArguments(roomCode: roomCode, playerId: player))
    }

    /// Records a score for `round` (1-based); `playerId` nil means the caller's own.
    public func submitScore(
        roomCode: String, playerId: UserID? = nil, round: Int, score: Int
    ) async throws(ParlorClientError) -> GameRoom {
        let player = try await resolve(playerId)
        return try await call(Operation.submitScore, SubmitScoreArguments(roomCode: roomCode, playerId: player, round: round, score: score))
    }

    /// Closes the current round (moderator only); the game finishes at the point limit or after the last round.
    public func nextRound(roomCode: String) async throws(ParlorClientError) -> GameRoom {
        try await call(Operation.nextRound, RoomCodeArguments(roomCode: roomCode))
    }

    /// Starts a rematch of a finished room (moderator only): a new room with the same seats. Answers its
    /// code; asking again answers the same one.
    public func rematchRoom(roomCode: String) async throws(ParlorClientError) -> String {
        let result = try await call(Operation.rematchRoom, RoomCodeArguments(roomCode: roomCode))
        return result.code
    }

    /// The room as it is now.
    public func getRoom(code: String) async throws(ParlorClientError) -> GameRoom {
        try await call(Operation.getRoom, CodeArguments(code: code))
    }

    /// Finished games, newest first.
    public func listGames(_ arguments: ListGamesArguments = ListGamesArguments()) async throws(ParlorClientError) -> ListGamesResult {
        try await call(Operation.listGames, arguments)
    }

    /// The room's every change, from its current state on: a `GameRoom` per version, `nil` when the room
    /// is deleted (the stream then ends). Survives reconnects: the same stream goes on after the client
    /// subscribes again, without repeats or older versions. Snapshots conflate for a slow reader (see
    /// ``ParlorClientConfiguration/roomEventBuffer``). Stop iterating to unsubscribe.
    public func observeRoom(code: String) async throws(ParlorClientError) -> AsyncStream<GameRoom?> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: GameRoom?.self, bufferingPolicy: .bufferingNewest(max(configuration.roomEventBuffer, 1)))
        try await subscribe(.room(code: Self.normalizedCode(code)), sink: .room(continuation))
        return stream
    }

    private func resolve(_ playerId: UserID?) async throws(ParlorClientError) -> UserID {
        if let playerId { return playerId }
        return try await currentUserID()
    }

    /// Codes are typed in any case and with stray spaces; the server reads them the same way, and so must
    /// the key under which the subscription is kept.
    static func normalizedCode(_ code: String) -> String {
        var slice = Substring(code)
        while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
        return slice.uppercased()
    }
}
