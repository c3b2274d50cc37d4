import ParlorRules

/// A lobby's public view on the wire (the `lobby` event): no words during a round, only counts.
/// It is the rules' own `LobbyPublicView` (built by `WordLobby.publicView`, so nothing secret can reach
/// it) and holds no fields of its own but `serverTime`: `view.lobbyCode`, `view.status` and the rest read
/// the rules' typed values. On the wire the times are ISO-8601 UTC with milliseconds, and `winners` is
/// there only once the match is `FINISHED`.
@dynamicMemberLookup
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

    /// The lobby as the rules show it to everyone.
    public let lobby: LobbyPublicView
    /// The server's clock when this version was published, as the `lobby` event carries it: compare
    /// `round.deadline` with it, not with the device's clock. The server adds it when it sends a version,
    /// so a view built here has none; optional, so views from servers without it still decode.
    public var serverTime: Instant?

    public init(_ view: LobbyPublicView, serverTime: Instant? = nil) {
        lobby = view
        self.serverTime = serverTime
    }

    public init(_ lobby: WordLobby, serverTime: Instant? = nil) { self.init(lobby.publicView, serverTime: serverTime) }

    public subscript<Value>(dynamicMember field: KeyPath<LobbyPublicView, Value>) -> Value {
        lobby[keyPath: field]
    }

    /// Everyone with the top score once the match is `FINISHED` (more than one on a tie); nil before, as
    /// the wire leaves it out.
    public var winners: [UserID]? { lobby.status == .finished ? lobby.winners : nil }

    private enum CodingKeys: String, CodingKey {
        case lobbyId, lobbyCode, status, creator, capacity, version, players, round, lastRound, rounds, winners, finishedAt, rematch
        case serverTime
    }

    private enum RoundKeys: String, CodingKey { case number, game, startedAt, deadline }

    /// Today's wire form: ISO-8601 or millisecond times, `winners` absent before the end.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        lobby = LobbyPublicView(
            lobbyId: try container.decode(String.self, forKey: .lobbyId), lobbyCode: try container.decode(LobbyCode.self, forKey: .lobbyCode),
            status: try container.decode(LobbyStatus.self, forKey: .status), creator: try container.decode(UserID.self, forKey: .creator),
            capacity: try container.decode(Int.self, forKey: .capacity), version: try container.decode(Int.self, forKey: .version),
            players: try container.decode([Player].self, forKey: .players), round: try container.decodeIfPresent(Round.self, forKey: .round),
            lastRound: try container.decodeIfPresent(RoundResult.self, forKey: .lastRound),
            rounds: try container.decodeIfPresent(Int.self, forKey: .rounds),
            winners: try container.decodeIfPresent([UserID].self, forKey: .winners) ?? [],
            finishedAt: try container.decodeIfPresent(Instant.self, forKey: .finishedAt),
            rematch: try container.decodeIfPresent(LobbyCode.self, forKey: .rematch))
        serverTime = try container.decodeIfPresent(Instant.self, forKey: .serverTime)
    }

    /// The rules' view with its times as ISO-8601 text; absent values left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lobby.lobbyId, forKey: .lobbyId)
        try container.encode(lobby.lobbyCode, forKey: .lobbyCode)
        try container.encode(lobby.status, forKey: .status)
        try container.encode(lobby.creator, forKey: .creator)
        try container.encode(lobby.capacity, forKey: .capacity)
        try container.encode(lobby.version, forKey: .version)
        try container.encode(lobby.players, forKey: .players)
        if let round = lobby.round {
            var wire = container.nestedContainer(keyedBy: RoundKeys.self, forKey: .round)
            try wire.encode(round.number, forKey: .number)
            try wire.encode(round.game, forKey: .game)
            try wire.encode(round.startedAt.iso8601, forKey: .startedAt)
            try wire.encode(round.deadline.iso8601, forKey: .deadline)
        }
        try container.encodeIfPresent(lobby.lastRound.map(WireRoundResults.init), forKey: .lastRound)
        try container.encodeIfPresent(lobby.rounds, forKey: .rounds)
        try container.encodeIfPresent(winners, forKey: .winners)
        try container.encodeIfPresent(lobby.finishedAt?.iso8601, forKey: .finishedAt)
        try container.encodeIfPresent(lobby.rematch, forKey: .rematch)
        try container.encodeIfPresent(serverTime?.iso8601, forKey: .serverTime)
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
