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

/// `listGames {userId?, before?, limit?}`: finished games, newest first. `before` is an ISO-8601
/// timestamp (a finished game's `finishedAt`) to page backwards from.
public struct ListGamesArguments: OperationArguments, DefaultArguments {
    public var userId: UserID?
    public var before: String?
    public var limit: Int?

    public static let defaultLimit = 20
    public static let maxLimit = 100
    public static let limits = 1...maxLimit

    public init(userId: UserID? = nil, before: String? = nil, limit: Int? = nil) {
        self.userId = userId
        self.before = before
        self.limit = limit
    }

    public init() { self.init(userId: nil) }

    /// `limit`, `defaultLimit` when absent; `INVALID_INPUT` naming the range when outside 1…`maxLimit`
    /// (a page size is never changed silently: a client asking for 0 or 100,000 learns the bounds).
    public func checkedLimit() throws(WireError) -> Int {
        guard let limit else { return Self.defaultLimit }
        guard Self.limits.contains(limit) else { throw Self.limitError(got: "\(limit)") }
        return limit
    }

    /// The refusal of a `limit` that is out of range or not an integer.
    public static func limitError(got: String) -> WireError {
        WireError(.invalidInput, "limit must be an integer from \(limits.lowerBound) to \(limits.upperBound) (got \(got.prefix(20))).")
    }

    /// `before` as an instant; nil when absent or not an ISO-8601 timestamp.
    public var beforeInstant: Instant? { before.flatMap(Instant.init(iso8601:)) }
}

// MARK: Operations

extension OperationName {
    public static let createRoom = OperationName("createRoom")
    public static let joinRoom = OperationName("joinRoom")
    public static let setReady = OperationName("setReady")
    public static let leaveRoom = OperationName("leaveRoom")
    public static let observeRoom = OperationName("observeRoom")
    public static let submitScore = OperationName("submitScore")
    public static let nextRound = OperationName("nextRound")
    public static let getRoom = OperationName("getRoom")
    public static let listGames = OperationName("listGames")
    public static let rematchRoom = OperationName("rematchRoom")
}

extension Operation {
    public static func createRoom(_ arguments: CreateRoomArguments) -> Operation { Operation(.createRoom, arguments) }
    public static func joinRoom(_ arguments: JoinRoomArguments) -> Operation { Operation(.joinRoom, arguments) }
    public static func setReady(_ arguments: SetReadyArguments) -> Operation { Operation(.setReady, arguments) }
    public static func leaveRoom(_ arguments: LeaveRoomArguments) -> Operation { Operation(.leaveRoom, arguments) }
    public static func observeRoom(_ arguments: CodeArguments) -> Operation { Operation(.observeRoom, arguments) }
    public static func submitScore(_ arguments: SubmitScoreArguments) -> Operation { Operation(.submitScore, arguments) }
    public static func nextRound(_ arguments: RoomCodeArguments) -> Operation { Operation(.nextRound, arguments) }
    public static func getRoom(_ arguments: CodeArguments) -> Operation { Operation(.getRoom, arguments) }
    public static func listGames(_ arguments: ListGamesArguments) -> Operation { Operation(.listGames, arguments) }
    public static func rematchRoom(_ arguments: RoomCodeArguments) -> Operation { Operation(.rematchRoom, arguments) }
}

extension OperationSpec {
    /// The rummy room operations (`startGame` is shared: `StartGameArguments`).
    static let rummy: [OperationSpec] = [
        OperationSpec(.createRoom, CreateRoomArguments.self),
        OperationSpec(.joinRoom, JoinRoomArguments.self),
        OperationSpec(.setReady, SetReadyArguments.self),
        OperationSpec(.leaveRoom, LeaveRoomArguments.self),
        OperationSpec(.observeRoom, CodeArguments.self),
        OperationSpec(.submitScore, SubmitScoreArguments.self),
        OperationSpec(.nextRound, RoomCodeArguments.self),
        OperationSpec(.getRoom, CodeArguments.self),
        OperationSpec(.listGames, ListGamesArguments.self),
        OperationSpec(.rematchRoom, RoomCodeArguments.self),
    ]
}

