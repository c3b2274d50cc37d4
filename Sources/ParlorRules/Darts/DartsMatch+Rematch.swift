/// A rematch of a finished match (`Rematchable`; the kernel's `GameHost.rematch` creates and files it):
/// the same settings — game, in and out rules, legs, sets, seats — and the same players, guests too,
/// with fresh scores. The old match records the new code, so everyone following it goes on to it.
///
/// Decisions:
/// - Only the host starts a rematch, as only the host starts a match (rummy's moderator alike); the
///   host stays the host, scoring for the guests as before. Asking again answers the same code.
/// - The order turns by one: who threw second throws first, and whoever threw first throws last — the
///   next game's throw goes to the next player, as darts players take turns at starting. The legs
///   inside the match then rotate from there, as in any match.
/// - A player who left the match is not seated again: they are gone, and a seat they do not know of
///   would only wait for the host to score it.
/// - The rematch starts at once: everyone is seated, there is no one to wait for.
extension DartsMatch: Rematchable {
    public var rematchCode: String? { rematch?.rawValue }

    public func rematch(by user: UserID, id: String, code: String, at now: Instant) throws(DartsError) -> DartsMatch {
        guard user == hostId else { throw .notHost(action: "start a rematch") }
        guard status == .finished else { throw Self.notFinished(self.code) }
        let stayed = players.filter { !$0.hasLeft }.map { DartsPlayer(id: $0.id, name: $0.name, isGuest: $0.isGuest) }
        var next = DartsMatch(
            id: id, code: MatchCode(uncheckedRawValue: code), settings: settings, createdAt: now, hostId: hostId,
            players: Array(stayed.dropFirst() + stayed.prefix(1)), status: .waiting, legs: [], startedAt: nil, finishedAt: nil,
            winner: nil, rematch: nil, version: 1)
        _ = try next.apply(.start, by: hostId, at: now)
        return next
    }

    public static func recordRematch(code: String) -> DartsAction { .recordRematch(code: code) }

    mutating func recordRematch(_ code: MatchCode) throws(DartsError) -> [DartsEvent] {
        guard status == .finished else { throw Self.notFinished(self.code) }
        if let rematch { throw .invalidState(reason: "A rematch was already started: match \(rematch).") }
        rematch = code
        return [.rematchStarted(code)]
    }

    private static func notFinished(_ code: MatchCode) -> DartsError {
        .invalidState(reason: "Match \(code) is not finished; a rematch starts once it is.")
    }
}
