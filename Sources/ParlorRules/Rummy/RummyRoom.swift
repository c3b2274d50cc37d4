/// A rummy scorekeeper room: seats, moderator, ready check, six rounds of scores, and the result.
///
/// A pure value. The server's room actor is its only writer: it calls `apply`, persists, then publishes.
/// `version` starts at 1 and rises by exactly one for every change; an action that changes nothing
/// returns no events and leaves `version` alone.
public struct RummyRoom: Sendable, Equatable, Codable {
    public let id: RoomCode
    public let pointLimit: Int
    /// Cents per point.
    public let pointValue: Int
    /// Seats: the room's capacity, enforced on join.
    public let playerCount: Int
    public internal(set) var currentRound: Int
    public internal(set) var isStarted: Bool
    public internal(set) var isFinished: Bool
    /// In seat order.
    public internal(set) var players: [RummyPlayer]
    public let createdAt: Instant
    public let createdBy: UserID
    public internal(set) var version: Int
    public internal(set) var results: RummyResults?
    public internal(set) var finishedAt: Instant?
    /// Where the players went for a rematch, once the moderator started one.
    public internal(set) var rematch: RoomCode?

    /// A new room with `creator` in the first seat, as moderator and ready.
    public static func create(
        code: RoomCode,
        pointLimit: Int,
        pointValue: Int,
        playerCount: Int,
        creator: UserID,
        playerName: String,
        at now: Instant
    ) throws(RoomError) -> RummyRoom {
        try check(pointLimit, in: RummyRules.pointLimits, field: "pointLimit")
        try check(pointValue, in: RummyRules.pointValues, field: "pointValue")
        try check(playerCount, in: RummyRules.playerCounts, field: "playerCount")
        let name = try validName(playerName)
        return RummyRoom(
            id: code, pointLimit: pointLimit, pointValue: pointValue, playerCount: playerCount,
            currentRound: 1, isStarted: false, isFinished: false,
            players: [RummyPlayer(id: creator, name: name, isReady: true, isModerator: true)],
            createdAt: now, createdBy: creator, version: 1, results: nil, finishedAt: nil, rematch: nil)
    }

    public var moderator: RummyPlayer? { players.first(where: \.isModerator) }

    public func player(_ id: UserID) -> RummyPlayer? { players.first { $0.id == id } }

    public func isMember(_ id: UserID) -> Bool { players.contains { $0.id == id } }

    public func isModerator(_ id: UserID) -> Bool { player(id)?.isModerator == true }

    static func check(_ value: Int, in range: ClosedRange<Int>, field: String) throws(RoomError) {
        guard range.contains(value) else {
            throw .invalidInput(
                field: field,
                reason: "\(field) must be between \(range.lowerBound) and \(range.upperBound) (got \(value)).")
        }
    }

    static func validName(_ raw: String) throws(RoomError) -> String {
        switch DisplayName.validate(raw, maxCharacters: RummyRules.nameMaxCharacters) {
        case .success(let name): return name
        case .failure(let problem):
            throw .invalidInput(field: "playerName", reason: DisplayName.sentence(for: problem, field: "playerName"))
        }
    }
}
