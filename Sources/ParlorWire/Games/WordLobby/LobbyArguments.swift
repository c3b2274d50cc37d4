import ParlorRules

// Arguments of the word lobby operations (seed `word-lobby-functions.md`).

/// The display profile sent with `createLobby` / `joinLobby` (`user`).
public struct LobbyUserArguments: Sendable, Equatable, Codable {
    public var username: String
    public var colorNumber: Int
    public var emojiNumber: Int

    public init(username: String, colorNumber: Int, emojiNumber: Int) {
        self.username = username
        self.colorNumber = colorNumber
        self.emojiNumber = emojiNumber
    }

    public var profile: LobbyProfile {
        LobbyProfile(username: username, colorNumber: colorNumber, emojiNumber: emojiNumber)
    }
}

public struct CreateLobbyArguments: OperationArguments {
    public var user: LobbyUserArguments
    /// Rounds in the match (1–50); the server's default (5) when absent.
    public var rounds: Int?

    public init(user: LobbyUserArguments, rounds: Int? = nil) {
        self.user = user
        self.rounds = rounds
    }
}

public struct JoinLobbyArguments: OperationArguments {
    public var lobbyCode: String
    public var user: LobbyUserArguments

    public init(lobbyCode: String, user: LobbyUserArguments) {
        self.lobbyCode = lobbyCode
        self.user = user
    }
}

public struct SubmitWordArguments: OperationArguments {
    public var lobbyId: String
    public var word: String

    public init(lobbyId: String, word: String) {
        self.lobbyId = lobbyId
        self.word = word
    }
}

/// `leaveLobby {lobbyId}`, `observeLobby {lobbyId}`.
public struct LobbyIdArguments: OperationArguments {
    public var lobbyId: String

    public init(lobbyId: String) { self.lobbyId = lobbyId }
}

/// `removeLobbyPlayer {lobbyId, userId}`: the creator takes a seat away.
public struct RemoveLobbyPlayerArguments: OperationArguments {
    public var lobbyId: String
    public var userId: UserID

    public init(lobbyId: String, userId: UserID) {
        self.lobbyId = lobbyId
        self.userId = userId
    }
}

/// `watchLobby {lobbyCode}`.
public struct LobbyCodeArguments: OperationArguments {
    public var lobbyCode: String

    public init(lobbyCode: String) { self.lobbyCode = lobbyCode }
}

/// `startGame {lobbyId, gameId?}`: a round of `gameId`, or of the lobby's next game of the catalog.
public struct StartLobbyGameArguments: OperationArguments {
    public var lobbyId: String
    public var gameId: String?

    public init(lobbyId: String, gameId: String? = nil) {
        self.lobbyId = lobbyId
        self.gameId = gameId
    }
}

/// `getCatalog {since?}`: the catalog, or `{unchanged: true}` when `since` is already its version.
public struct GetCatalogArguments: OperationArguments, DefaultArguments {
    public var since: Int?

    public init(since: Int? = nil) { self.since = since }
    public init() { self.init(since: nil) }
}
