import ParlorRules

// Arguments of the rummy room operations (seed `rummy-room-api.md`). Room codes arrive as text so the
// rules can answer a malformed one with INVALID_ROOM_CODE; player ids must be UUIDs (else BAD_REQUEST).
// Ranges and lengths are the rules' to check.

public struct CreateRoomArguments: OperationArguments {
    public var pointLimit: Int
    public var pointValue: Int
    public var playerCount: Int
    public var playerName: String

    public init(pointLimit: Int, pointValue: Int, playerCount: Int, playerName: String) {
        self.pointLimit = pointLimit
        self.pointValue = pointValue
        self.playerCount = playerCount
        self.playerName = playerName
    }
}

public struct JoinRoomArguments: OperationArguments {
    public var code: String
    public var playerName: String

    public init(code: String, playerName: String) {
        self.code = code
        self.playerName = playerName
    }
}

public struct SetReadyArguments: OperationArguments {
    public var roomCode: String
    public var playerId: UserID
    public var ready: Bool

    public init(roomCode: String, playerId: UserID, ready: Bool) {
        self.roomCode = roomCode
        self.playerId = playerId
        self.ready = ready
    }
}

public struct LeaveRoomArguments: OperationArguments {
    public var roomCode: String
    public var playerId: UserID

    public init(roomCode: String, playerId: UserID) {
        self.roomCode = roomCode
        self.playerId = playerId
    }
}

public struct SubmitScoreArguments: OperationArguments {
    public var roomCode: String
    public var playerId: UserID
    public var round: Int
    public var score: Int

    public init(roomCode: String, playerId: UserID, round: Int, score: Int) {
        self.roomCode = roomCode
        self.playerId = playerId
        self.round = round
        self.score = score
    }
}

/// `nextRound {roomCode}`.
public struct RoomCodeArguments: OperationArguments {
    public var roomCode: String

    public init(roomCode: String) { self.roomCode = roomCode }
}

/// `observeRoom {code}`, `getRoom {code}`.
public struct CodeArguments: OperationArguments {
    public var code: String

    public init(code: String) { self.code = code }
}
