/// `startGame` serves both systems: `{roomCode}` starts a rummy game, `{lobbyId, gameId?}` starts a word
/// lobby round (`gameId` absent: the lobby's next game of the catalog). Exactly one of `roomCode` and
/// `lobbyId` must be present; anything else is a bad request.
public enum StartGameArguments: OperationArguments {
    case room(roomCode: String)
    case lobby(lobbyId: String, gameId: String?)

    private enum CodingKeys: String, CodingKey { case roomCode, lobbyId, gameId }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let roomCode = try container.decodeIfPresent(String.self, forKey: .roomCode)
        let lobbyId = try container.decodeIfPresent(String.self, forKey: .lobbyId)
        switch (roomCode, lobbyId) {
        case (let roomCode?, nil):
            self = .room(roomCode: roomCode)
        case (nil, let lobbyId?):
            self = .lobby(lobbyId: lobbyId, gameId: try container.decodeIfPresent(String.self, forKey: .gameId))
        default:
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: container.codingPath,
                debugDescription: "must have exactly one of roomCode (rummy) or lobbyId (word lobby)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .room(let roomCode):
            try container.encode(roomCode, forKey: .roomCode)
        case .lobby(let lobbyId, let gameId):
            try container.encode(lobbyId, forKey: .lobbyId)
            try container.encodeIfPresent(gameId, forKey: .gameId)
        }
    }
}

// MARK: Operations

extension OperationName {
    /// Shared by rummy rooms (`roomCode`) and word lobbies (`lobbyId`).
    public static let startGame = OperationName("startGame")
}

extension Operation {
    public static func startGame(_ arguments: StartGameArguments) -> Operation { Operation(.startGame, arguments) }
}

extension OperationSpec {
    /// Operations several games share, told apart by their arguments.
    static let shared: [OperationSpec] = [
        OperationSpec(.startGame, StartGameArguments.self),
    ]
}
