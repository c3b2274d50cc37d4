/// A live x01 match: its settings, its seats, its legs with every visit, and who won.
///
/// A pure value; the server's game actor is its only writer. `version` starts at 1 and rises by exactly
/// one for every change. Whose turn it is, each score, the legs and sets won and the statistics are all
/// derived from the visits (`DartsMatch+Standings`), so replacing the last visit recomputes everything
/// that followed from it.
public struct DartsMatch: Sendable, Equatable, Codable {
    /// Opaque and unique among every match ever played (codes are reused); names the match in history.
    public let id: String
    public let code: MatchCode
    public let settings: X01Settings
    public let createdAt: Instant
    /// An account player: the scorer, who may enter or edit anyone's visit.
    public internal(set) var hostId: UserID
    /// In throwing order.
    public internal(set) var players: [DartsPlayer]
    public internal(set) var status: MatchStatus
    /// Empty until the match starts; the last is the leg being played (or the deciding one).
    public internal(set) var legs: [DartsLeg]
    public internal(set) var startedAt: Instant?
    public internal(set) var finishedAt: Instant?
    /// The seat that won the match.
    public internal(set) var winner: Int?
    /// Where the players went for a rematch, once the host started one (`DartsMatch+Rematch`).
    public internal(set) var rematch: MatchCode?
    public internal(set) var version: Int

    /// A new match with `host` in the first seat.
    public static func create(
        id: String, code: MatchCode, settings: X01Settings, host: UserID, playerName: String, at now: Instant
    ) throws(DartsError) -> DartsMatch {
        try check(settings.legs, in: DartsLimits.legs, field: "legs")
        if let sets = settings.sets { try check(sets, in: DartsLimits.sets, field: "sets") }
        try check(settings.capacity, in: DartsLimits.capacity, field: "capacity")
        let name = try validName(playerName, field: "playerName")
        return DartsMatch(
            id: id, code: code, settings: settings, createdAt: now, hostId: host,
            players: [DartsPlayer(id: host, name: name, isGuest: false)], status: .waiting, legs: [],
            startedAt: nil, finishedAt: nil, winner: nil, rematch: nil, version: 1)
    }

    /// The seat of `id`, if it has one.
    public func seat(of id: UserID) -> Int? { players.firstIndex { $0.id == id } }

    static func check(_ value: Int, in range: ClosedRange<Int>, field: String) throws(DartsError) {
        guard range.contains(value) else {
            throw .invalidInput(
                field: field, reason: "\(field) must be between \(range.lowerBound) and \(range.upperBound) (got \(value)).")
        }
    }

    static func validName(_ raw: String, field: String) throws(DartsError) -> String {
        switch DisplayName.validate(raw, maxCharacters: DartsLimits.nameMaxCharacters) {
        case .success(let name): return name
        case .failure(let problem): throw .invalidInput(field: field, reason: DisplayName.sentence(for: problem, field: field))
        }
    }
}
