import ParlorRules
import ParlorWire

/// An uploaded match (`POST /matches`) with every field checked and read: the settings it was played
/// under, its seats in throwing order, its instants. A bad field is `INVALID_INPUT` naming it in the
/// upload's own spelling (`players[1].name`, `metadata.legs`).
struct CheckedUpload: Sendable {
    struct Seat: Sendable, Equatable {
        /// Nil for a guest.
        let playerId: UserID?
        let name: String
    }

    /// The client's UUID, lowercase.
    let id: String
    let settings: X01Settings
    /// In throwing order.
    let seats: [Seat]
    let startedAt: Instant
    let endedAt: Instant
    let updatedAt: Instant
    let winnerId: UserID?
    let durationSeconds: Int
    /// The upload as sent, without its turns: what a repeated upload of the same version must equal.
    let upload: MatchUpload

    /// Account players, in throwing order.
    var accountPlayers: [UserID] { seats.compactMap(\.playerId) }

    /// How far ahead of the server's clock a device's time may run (phones' clocks drift).
    static let allowedClockSkewMilliseconds: Int64 = 24 * 3_600_000
    /// A week: no darts match lasts longer.
    static let maxDurationSeconds = 7 * 24 * 3600

    /// Checks `upload`; `names` are the account players' profile names, for players sent without one.
    init(_ upload: MatchUpload, names: [UserID: String], now: Instant) throws(WireError) {
        guard let uuid = UserID(upload.id) else { throw Self.invalid("id must be a UUID (got \"\(ProfileRules.clip(upload.id))\").") }
        id = uuid.rawValue
        guard let gameType = X01GameType(rawValue: upload.gameType) else {
            throw Self.invalid("game_type must be \"301\", \"501\" or \"701\" (got \"\(ProfileRules.clip(upload.gameType))\").")
        }
        let metadata = upload.metadata
        let inRule = try Self.rule(metadata.inRule, InRule.self, default: .straight, field: "metadata.in_rule")
        let outRule = try Self.rule(metadata.outRule, OutRule.self, default: .double, field: "metadata.out_rule")
        let legs = metadata.legs ?? 1
        guard DartsLimits.legs.contains(legs) else { throw Self.range("metadata.legs", DartsLimits.legs, legs) }
        if let sets = metadata.sets, !DartsLimits.sets.contains(sets) { throw Self.range("metadata.sets", DartsLimits.sets, sets) }
        guard (0...Self.maxDurationSeconds).contains(metadata.durationSeconds) else {
            throw Self.range("metadata.duration_seconds", 0...Self.maxDurationSeconds, metadata.durationSeconds)
        }
        durationSeconds = metadata.durationSeconds
        seats = try Self.seats(upload.players, names: names)
        settings = X01Settings(gameType: gameType, inRule: inRule, outRule: outRule, legs: legs, sets: metadata.sets, capacity: seats.count)

        startedAt = try Self.instant(upload.startedAt, field: "started_at")
        endedAt = try Self.instant(upload.endedAt, field: "ended_at")
        updatedAt = try Self.instant(upload.updatedAt, field: "updated_at")
        guard startedAt <= endedAt else { throw Self.invalid("ended_at is before started_at.") }
        let latest = now.adding(milliseconds: Self.allowedClockSkewMilliseconds)
        guard endedAt <= latest, updatedAt <= latest else { throw Self.invalid("ended_at and updated_at must not be in the future.") }
        if let winner = upload.winnerId, !seats.contains(where: { $0.playerId == winner }) {
            throw Self.invalid("winner_id must be one of the players' player_id (or null when a guest won).")
        }
        winnerId = upload.winnerId
        var plain = upload
        plain.turns = nil
        self.upload = plain
    }

    /// The seats in throwing order: orders 0…n−1 once each, account players once each, a name for
    /// every seat (an account player's defaults to their profile's).
    private static func seats(_ players: [MatchUpload.Player], names: [UserID: String]) throws(WireError) -> [Seat] {
        guard DartsLimits.capacity.contains(players.count) else {
            throw invalid("players must list \(DartsLimits.capacity.lowerBound) to \(DartsLimits.capacity.upperBound) players (got \(players.count)).")
        }
        guard players.map(\.order).sorted() == Array(0..<players.count) else {
            throw invalid("players[].order must number the players 0 to \(players.count - 1), once each.")
        }
        let accounts = players.compactMap(\.playerId)
        guard Set(accounts).count == accounts.count else { throw invalid("a player_id appears more than once in players.") }
        var seats: [Seat] = []
        for player in players.sorted(by: { $0.order < $1.order }) {
            let field = "players[\(player.order)].name"
            let raw = player.name ?? player.playerId.flatMap { names[$0] }
            guard let raw else {
                throw invalid(player.playerId == nil ? "\(field) is needed for a guest." : "\(field) is needed: that player has no profile.")
            }
            switch DisplayName.validate(raw, maxCharacters: DartsLimits.nameMaxCharacters) {
            case .success(let name): seats.append(Seat(playerId: player.playerId, name: name))
            case .failure(let problem): throw invalid(DisplayName.sentence(for: problem, field: field))
            }
        }
        return seats
    }

    private static func rule<Rule: RawRepresentable & CaseIterable>(
        _ text: String?, _ type: Rule.Type, default value: Rule, field: String
    ) throws(WireError) -> Rule where Rule.RawValue == String {
        guard let text else { return value }
        guard let rule = Rule(rawValue: text) else {
            let names = Rule.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw invalid("\(field) must be one of \(names) (got \"\(ProfileRules.clip(text))\").")
        }
        return rule
    }

    static func instant(_ text: String, field: String) throws(WireError) -> Instant {
        guard let instant = Instant(iso8601: text) else {
            throw invalid("\(field) must be an ISO-8601 timestamp such as 2026-10-10T20:00:00Z (got \"\(ProfileRules.clip(text))\").")
        }
        return instant
    }

    private static func range(_ field: String, _ range: ClosedRange<Int>, _ value: Int) -> WireError {
        invalid("\(field) must be between \(range.lowerBound) and \(range.upperBound) (got \(value)).")
    }

    static func invalid(_ message: String) -> WireError { WireError(.invalidInput, message) }
}
