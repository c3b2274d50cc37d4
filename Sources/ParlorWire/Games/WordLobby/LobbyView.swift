import ParlorRules

/// A lobby's public view on the wire (the `lobby` event): no words during a round, only counts.
/// Built from `WordLobby.publicView`, so nothing secret can reach it.
public struct LobbyView: Sendable, Equatable, Codable {
    /// A player as the rules show them to everyone (the wire form is the same).
    public typealias Player = LobbyPublicView.Player

    /// The round's game as the rules brief players (the wire form is the same).
    public typealias Game = GameBrief

    public struct Round: Sendable, Equatable, Codable {
        public let number: Int
        public let game: Game
        public let startedAt: String
        public let deadline: String
    }

    /// A word of a finished round, with its verdict and points (the wire form is the rules' own).
    public typealias Word = RoundResults.ScoredWord
    /// One player's finished round (the wire form is the rules' own).
    public typealias PlayerResult = RoundResults.PlayerResult

    public struct RoundResult: Sendable, Equatable, Codable {
        public let number: Int
        public let gameId: String
        public let gameName: String
        public let endedAt: String
        public let players: [PlayerResult]
    }

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
        round = view.round.map { round in
            Round(number: round.number, game: round.game, startedAt: round.startedAt.iso8601, deadline: round.deadline.iso8601)
        }
        lastRound = view.lastRound.map { results in
            RoundResult(
                number: results.number, gameId: results.gameId, gameName: results.gameName, endedAt: results.endedAt.iso8601,
                players: results.players)
        }
        rounds = view.rounds
        winners = view.status == .finished ? view.winners : nil
        finishedAt = view.finishedAt?.iso8601
        rematch = view.rematch?.rawValue
        serverTime = nil
    }

    public init(_ lobby: WordLobby) { self.init(lobby.publicView) }
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
