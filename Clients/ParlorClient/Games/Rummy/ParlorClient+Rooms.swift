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
    /// is deleted (the stream then ends). Survives reconnects like every ``follow(_:key:)``. Stop
    /// iterating to unsubscribe.
    public func observeRoom(code: String) async throws(ParlorClientError) -> AsyncStream<GameRoom?> {
        try await follow(.room, key: code)
    }

    private func resolve(_ playerId: UserID?) async throws(ParlorClientError) -> UserID {
        if let playerId { return playerId }
        return try await currentUserID()
    }
}

extension GameStream where Update == GameRoom? {
    /// A rummy room's stream: the `room` event, null when the room is deleted.
    public static let room = GameStream(
        "room", observe: Operation.observeRoom, arguments: { CodeArguments(code: $0) }, event: .room,
        gone: [.roomNotFound, .invalidRoomCode, .notFound])
}

extension GameRoom: VersionedView {
    public var version: Int { room.version }
}

extension ParlorClientConfiguration {
    /// Room snapshots buffered per stream (default 1: they conflate).
    public var roomEventBuffer: Int {
        get { eventBuffers[GameStream.room.kind] ?? GameStream.room.defaultBuffer }
        set { eventBuffers[GameStream.room.kind] = newValue }
    }
}
