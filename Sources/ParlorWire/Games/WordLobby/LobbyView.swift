import ParlorRules

/// A lobby's public view on the wire (the `lobby` event): no words during a round, only counts.
/// Built from `WordLobby.publicView`, so nothing secret can reach it.
public struct LobbyView: Sendable, Equatable, Codable {
    /// A player as the rules show them to everyone (the wire form is the same).
    public typealias Player = LobbyPublicView.Player

    /// The round's game as the rules brief players (the wire form is the same).
    public typealias Game = GameBrief

    /// The running round as the rules show it (`startedAt` and `deadline` written as ISO-8601 text).
    public typealias Round = LobbyPublicView.Round

    /// A word of a finished round, with its verdict and points (the wire form is the rules' own).
    public typealias Word = RoundResults.ScoredWord
    /// One player's finished round (the wire form is the rules' own).
    public typealias PlayerResult = RoundResults.PlayerResult

    /// The last finished round as the rules keep it (`endedAt` written as ISO-8601 text:
    /// `WireRoundResults`).
    public typealias RoundResult = RoundResults

    public let lobbyId: String
    public let lobbyCode: String
    /// `OPEN`, `GAME` or `FINISHED`.
    public let status: String
    public let creator: UserID
    public let capacity: Int
    public let version: Int
    public let players: [Player]
    public let round: Round?
    public let lastRound: RoundResult?
    /// Rounds in the match; absent for a lobby that plays on forever (or from an older server).
    public let rounds: Int?
    /// Everyone with the top score once the match is `FINISHED` (more than one on a tie); absent before.
    public let winners: [UserID]?
    public let finishedAt: String?
    /// The rematch's lobby code, once the creator started one: everyone here goes there.
    public let rematch: String?
    /// The server's clock when this version was published (ISO-8601), as the `lobby` event carries it:
    /// compare `round.deadline` with it, not with the device's clock. The server adds it when it sends a
    /// version, so a view built here has none; optional, so views from servers without it still decode.
    public var serverTime: String?

    public init(_ view: LobbyPublicView) {
        lobbyId = view.lobbyId
        lobbyCode = view.lobbyCode.rawValue
        status = view.status.rawValue
        creator = view.creator
        capacity = view.capacity
        version = view.version
        players = view.players
        round = view.round
        lastRound = view.lastRound
        rounds = view.rounds
        winners = view.status == .finished ? view.winners : nil
        finishedAt = view.finishedAt?.iso8601
        rematch = view.rematch?.rawValue
        serverTime = nil
    }

    public init(_ lobby: WordLobby) { self.init(lobby.publicView) }

    private enum CodingKeys: String, CodingKey {
        case lobbyId, lobbyCode, status, creator, capacity, version, players, round, lastRound, rounds, winners, finishedAt, rematch
        case serverTime
    }

    private enum RoundKeys: String, CodingKey { case number, game, startedAt, deadline }

    /// The rules' round and results with their times as ISO-8601 text; absent values left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lobbyId, forKey: .lobbyId)
        try container.encode(lobbyCode, forKey: .lobbyCode)
        try container.encode(status, forKey: .status)
        try container.encode(creator, forKey: .creator)
        try container.encode(capacity, forKey: .capacity)
        try container.encode(version, forKey: .version)
        try container.encode(players, forKey: .players)
        if let round {
            var wire = container.nestedContainer(keyedBy: RoundKeys.self, forKey: .round)
            try wire.encode(round.number, forKey: .number)
            try wire.encode(round.game, forKey: .game)
            try wire.encode(round.startedAt.iso8601, forKey: .startedAt)
            try wire.encode(round.deadline.iso8601, forKey: .deadline)
        }
        try container.encodeIfPresent(lastRound.map(WireRoundResults.init), forKey: .lastRound)
        try container.encodeIfPresent(rounds, forKey: .rounds)
        try container.encodeIfPresent(winners, forKey: .winners)
        try container.encodeIfPresent(finishedAt, forKey: .finishedAt)
        try container.encodeIfPresent(rematch, forKey: .rematch)
        try container.encodeIfPresent(serverTime, forKey: .serverTime)
    }
}

/// A finished round on the wire (`lastRound`, and what `parlor lobby` scripts print when a round
/// ends): the rules' `RoundResults` with `endedAt` as ISO-8601 text.
public struct WireRoundResults: Encodable {
    public let results: RoundResults

    public init(_ results: RoundResults) {
        self.results = results
    }

    private enum CodingKeys: String, CodingKey { case number, gameId, gameName, endedAt, players }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(results.number, forKey: .number)
        try container.encode(results.gameId, forKey: .gameId)
        try container.encode(results.gameName, forKey: .gameName)
        try container.encode(results.endedAt.iso8601, forKey: .endedAt)
        try container.encode(results.players, forKey: .players)
    }
}

/// One player's private view (the `lobbyPrivate` event): their own words in the running round.
public struct PlayerWordsView: Sendable, Equatable, Codable {
    public let lobbyId: String
    public let userId: UserID
    public let version: Int
    /// The running round's number; absent between rounds.
    public let round: Int?
    public let words: [WordVerdictResult]

    public init(_ view: LobbyPrivateView) {
        lobbyId = view.lobbyId
        userId = view.userId
        version = view.version
        round = view.roundNumber
        words = view.words.map(WordVerdictResult.init)
    }
}
