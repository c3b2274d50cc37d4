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

public struct CreateLobbyArguments: Sendable, Equatable, Codable {
    public var user: LobbyUserArguments

    public init(user: LobbyUserArguments) { self.user = user }
}

public struct JoinLobbyArguments: Sendable, Equatable, Codable {
    public var lobbyCode: String
    public var user: LobbyUserArguments

    public init(lobbyCode: String, user: LobbyUserArguments) {
        self.lobbyCode = lobbyCode
        self.user = user
    }
}

public struct SubmitWordArguments: Sendable, Equatable, Codable {
    public var lobbyId: String
    public var word: String

    public init(lobbyId: String, word: String) {
        self.lobbyId = lobbyId
        self.word = word
    }
}

/// `leaveLobby {lobbyId}`, `observeLobby {lobbyId}`.
public struct LobbyIdArguments: Sendable, Equatable, Codable {
    public var lobbyId: String

    public init(lobbyId: String) { self.lobbyId = lobbyId }
}

/// `startGame {lobbyId, gameId?}`: a round of `gameId`, or of the lobby's next game of the catalog.
public struct StartLobbyGameArguments: Sendable, Equatable, Codable {
    public var lobbyId: String
    public var gameId: String?

    public init(lobbyId: String, gameId: String? = nil) {
        self.lobbyId = lobbyId
        self.gameId = gameId
    }
}
