/// What everyone watching a lobby may see. During a round it holds no words at all, only how many
/// each player has submitted; words appear in `lastRound` once the round is over.
public struct LobbyPublicView: Sendable, Equatable, Codable {
    public struct Player: Sendable, Equatable, Codable {
        public let userId: UserID
        public let username: String
        public let colorNumber: Int
        public let emojiNumber: Int
        public let score: Int
        public let isCreator: Bool
        /// Words submitted in the running round; nil between rounds.
        public let wordCount: Int?
    }

    public struct Round: Sendable, Equatable, Codable {
        public let number: Int
        public let game: GameBrief
        public let startedAt: Instant
        public let deadline: Instant
    }

    public let lobbyId: String
    public let lobbyCode: LobbyCode
    public let status: LobbyStatus
    public let creator: UserID
    public let capacity: Int
    public let version: Int
    public let players: [Player]
    public let round: Round?
    public let lastRound: RoundResults?
    /// Rounds in the match; nil for a lobby that plays on forever.
    public let rounds: Int?
    /// Everyone with the top score, once the match is over; empty before.
    public let winners: [UserID]
    public let finishedAt: Instant?
    /// The rematch's code, once the creator started one.
    public let rematch: LobbyCode?

    public init(
        lobbyId: String, lobbyCode: LobbyCode, status: LobbyStatus, creator: UserID, capacity: Int, version: Int, players: [Player],
        round: Round?, lastRound: RoundResults?, rounds: Int?, winners: [UserID], finishedAt: Instant?, rematch: LobbyCode?
    ) {
        self.lobbyId = lobbyId
        self.lobbyCode = lobbyCode
        self.status = status
        self.creator = creator
        self.capacity = capacity
        self.version = version
        self.players = players
        self.round = round
        self.lastRound = lastRound
        self.rounds = rounds
        self.winners = winners
        self.finishedAt = finishedAt
        self.rematch = rematch
    }
}

/// What one player alone may see: their own words in the running round.
public struct LobbyPrivateView: Sendable, Equatable, Codable {
    public let lobbyId: String
    public let userId: UserID
    public let version: Int
    /// The running round's number; nil between rounds.
    public let roundNumber: Int?
    public let words: [WordVerdict]
}

/// A game as shown to players during a round: everything but the answer bank.
public struct GameBrief: Sendable, Equatable, Codable {
    public let id: String
    public let name: String
    public let description: String
    public let instructions: String
    public let type: String
    public let timeLimit: Int
    public let caseSensitive: Bool
    public let letterPosition: LetterPosition?
    public let targetLetter: String?

    public init(_ game: Game) {
        id = game.id
        name = game.name
        description = game.description
        instructions = game.instructions
        type = game.kind.typeName
        timeLimit = game.timeLimit
        caseSensitive = game.caseSensitive
        if case .word(let position, let letter) = game.kind {
            letterPosition = position
            targetLetter = letter
        } else {
            letterPosition = nil
            targetLetter = nil
        }
    }
}

extension WordLobby {
    public var publicView: LobbyPublicView {
        LobbyPublicView(
            lobbyId: lobbyId, lobbyCode: lobbyCode, status: status, creator: creator, capacity: capacity,
            version: version,
            players: players.map { player in
                LobbyPublicView.Player(
                    userId: player.userId, username: player.username, colorNumber: player.colorNumber,
                    emojiNumber: player.emojiNumber, score: player.score, isCreator: player.userId == creator,
                    wordCount: round.map { $0.words(of: player.userId).count })
            },
            round: round.map {
                LobbyPublicView.Round(number: $0.number, game: GameBrief($0.game), startedAt: $0.startedAt, deadline: $0.deadline)
            },
            lastRound: lastRound, rounds: rounds, winners: winners, finishedAt: finishedAt, rematch: rematch)
    }

    /// `userId`'s own words in the running round (none between rounds or for a non-member).
    public func privateView(for userId: UserID) -> LobbyPrivateView {
        LobbyPrivateView(
            lobbyId: lobbyId, userId: userId, version: version, roundNumber: round?.number,
            words: round?.words(of: userId) ?? [])
    }
}
