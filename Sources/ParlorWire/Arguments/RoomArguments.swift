import ParlorRules

// Arguments of the rummy room operations (seed `rummy-room-api.md`). Room codes arrive as text so the
// rules can answer a malformed one with INVALID_ROOM_CODE; player ids must be UUIDs (else BAD_REQUEST).
// Ranges and lengths are the rules' to check.

public struct CreateRoomArguments: Sendable, Equatable, Codable {
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

public struct JoinRoomArguments: Sendable, Equatable, Codable {
    public var code: String
    public var playerName: String

    public init(code: String, playerName: String) {
        self.code = code
        self.playerName = playerName
    }
}

public struct SetReadyArguments: Sendable, Equatable, Codable {
    public var roomCode: String
    public var playerId: UserID
    public var ready: Bool

    public init(roomCode: String, playerId: UserID, ready: Bool) {
        self.roomCode = roomCode
        self.playerId = playerId
        self.ready = ready
    }
}

public struct LeaveRoomArguments: Sendable, Equatable, Codable {
    public var roomCode: String
    public var playerId: UserID

    public init(roomCode: String, playerId: UserID) {
        self.roomCode = roomCode
        self.playerId = playerId
    }
}

public struct SubmitScoreArguments: Sendable, Equatable, Codable {
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
public struct RoomCodeArguments: Sendable, Equatable, Codable {
    public var roomCode: String

    public init(roomCode: String) { self.roomCode = roomCode }
}

/// `observeRoom {code}`, `getRoom {code}`.
public struct CodeArguments: Sendable, Equatable, Codable {
    public var code: String

    public init(code: String) { self.code = code }
}

/// `listGames {userId?, before?, limit?}`: finished games, newest first. `before` is an ISO-8601
/// timestamp (a finished game's `finishedAt`) to page backwards from.
public struct ListGamesArguments: Sendable, Equatable, Codable, DefaultArguments {
    public var userId: UserID?
    public var before: String?
    public var limit: Int?

    public static let defaultLimit = 20
    public static let maxLimit = 100

    public init(userId: UserID? = nil, before: String? = nil, limit: Int? = nil) {
        self.userId = userId
        self.before = before
        self.limit = limit
    }

    public init() { self.init(userId: nil) }

    /// `limit` clamped to 1…`maxLimit`, `defaultLimit` when absent.
    public var effectiveLimit: Int { min(max(limit ?? Self.defaultLimit, 1), Self.maxLimit) }

    /// `before` as an instant; nil when absent or not an ISO-8601 timestamp.
    public var beforeInstant: Instant? { before.flatMap(Instant.init(iso8601:)) }
}

/// Arguments whose fields are all optional, so `args` may be left out entirely.
public protocol DefaultArguments {
    init()
}
