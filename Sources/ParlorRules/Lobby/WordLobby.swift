/// A word-game lobby: players with display profiles, a creator who starts rounds, rounds on a server
/// clock, and running scores.
///
/// A pure value; the server's lobby actor is its only writer. `version` starts at 1 and rises by
/// exactly one for every change. Every check runs before anything changes, so a thrown error leaves
/// the lobby untouched.
///
/// Decisions the seed leaves open:
/// - Joining a lobby one is already in succeeds in any status and updates the display profile
///   (a change bumps `version`; the same profile changes nothing). Newcomers need `OPEN`.
/// - `OPEN` is also the state between rounds: late friends can join, and `startGame` starts the next
///   round. A lobby may play a round with only its creator.
/// - Leaving mid-round drops the player's words from that round. The creator leaving hands the lobby
///   to the next player in seat order; the last player leaving deletes it (`.lobbyDeleted`).
/// - A match is `rounds` rounds long: the end of the last one finishes the lobby (`FINISHED`), names
///   its winners (everyone with the top score) and files it in its players' history. Lobbies stored
///   before matches had a length have none (`rounds == nil`) and play on forever, as they did.
public struct WordLobby: Sendable, Equatable, Codable {
    public let lobbyId: String
    public let lobbyCode: LobbyCode
    public internal(set) var status: LobbyStatus
    public internal(set) var creator: UserID
    /// Seat order.
    public internal(set) var players: [LobbyPlayer]
    public let capacity: Int
    public let createdAt: Instant
    public internal(set) var version: Int
    /// The running round, while `status == .game`.
    public internal(set) var round: LobbyRound?
    /// The results of the most recent round that ended.
    public internal(set) var lastRound: RoundResults?
    /// Rounds started so far; the running round's number while in `GAME`.
    public internal(set) var roundsStarted: Int
    /// Index into `Catalog.playOrder` of the game `GameChoice.next` plays next.
    public internal(set) var nextGameIndex: Int
    /// Rounds in the match; nil for a lobby stored before matches had a length (it never finishes).
    public internal(set) var rounds: Int?
    /// When the last round ended, once the lobby is `FINISHED`.
    public internal(set) var finishedAt: Instant?
    /// Where the players went for a rematch, once the creator started one.
    public internal(set) var rematch: LobbyCode?

    public static let maxLobbyIDLength = 128

    public static func create(
        lobbyId: String,
        code: LobbyCode,
        creator: UserID,
        profile: LobbyProfile,
        capacity: Int = WordRules.defaultCapacity,
        rounds: Int = WordRules.defaultRounds,
        at now: Instant
    ) throws(LobbyError) -> WordLobby {
        guard !lobbyId.isEmpty, lobbyId.utf8.count <= maxLobbyIDLength else {
            throw .invalidArgument(field: "lobbyId", reason: "lobbyId must be 1 to \(maxLobbyIDLength) bytes long.")
        }
        guard WordRules.capacities.contains(capacity) else {
            throw .invalidArgument(
                field: "capacity",
                reason: "capacity must be between \(WordRules.capacities.lowerBound) and \(WordRules.capacities.upperBound) (got \(capacity)).")
        }
        guard WordRules.matchRounds.contains(rounds) else {
            throw .invalidArgument(
                field: "rounds",
                reason: "rounds must be between \(WordRules.matchRounds.lowerBound) and \(WordRules.matchRounds.upperBound) (got \(rounds)).")
        }
        let profile = try profile.validated()
        return WordLobby(
            lobbyId: lobbyId, lobbyCode: code, status: .open, creator: creator,
            players: [LobbyPlayer(userId: creator, profile: profile, score: 0)],
            capacity: capacity, createdAt: now, version: 1, round: nil, lastRound: nil,
            roundsStarted: 0, nextGameIndex: 0, rounds: rounds, finishedAt: nil, rematch: nil)
    }

    public func player(_ userId: UserID) -> LobbyPlayer? { players.first { $0.userId == userId } }

    public func isMember(_ userId: UserID) -> Bool { players.contains { $0.userId == userId } }

    public mutating func join(_ user: UserID, profile: LobbyProfile) throws(LobbyError) -> [LobbyEvent] {
        let profile = try profile.validated()
        if let index = players.firstIndex(where: { $0.userId == user }) {
            if players[index].profile == profile { return [] }
            players[index].profile = profile
            version += 1
            return [.profileUpdated(user)]
        }
        guard status != .finished else { throw .failedPrecondition(.matchFinished) }
        guard status == .open else { throw .failedPrecondition(.lobbyNotOpen) }
        guard players.count < capacity else { throw .resourceExhausted(.lobbyFull(capacity: capacity)) }
        players.append(LobbyPlayer(userId: user, profile: profile, score: 0))
        version += 1
        return [.playerJoined(user)]
    }

    public mutating func leave(_ user: UserID) throws(LobbyError) -> [LobbyEvent] {
        guard let index = players.firstIndex(where: { $0.userId == user }) else {
            throw .permissionDenied(.notMember)
        }
        players.remove(at: index)
        round?.entries.removeAll { $0.userId == user }
        version += 1
        var events: [LobbyEvent] = [.playerLeft(user)]
        guard let heir = players.first else {
            round = nil
            if status == .game { status = .open }
            events.append(.lobbyDeleted)
            return events
        }
        if creator == user {
            creator = heir.userId
            events.append(.creatorChanged(to: heir.userId))
        }
        return events
    }

    /// Everyone with the top score once the match is over (more than one on a tie); empty before.
    public var winners: [UserID] {
        guard status == .finished, let top = players.map(\.score).max() else { return [] }
        return players.filter { $0.score == top }.map(\.userId)
    }
}
