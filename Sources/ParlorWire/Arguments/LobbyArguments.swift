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
public struct StartLobbyGameArguments: Sendable, Equatable, Codable {
    public var lobbyId: String
    public var gameId: String?

    public init(lobbyId: String, gameId: String? = nil) {
        self.lobbyId = lobbyId
        self.gameId = gameId
    }
}

// MARK: Operations

extension OperationName {
    public static let createLobby = OperationName("createLobby")
    public static let joinLobby = OperationName("joinLobby")
    public static let submitWord = OperationName("submitWord")
    public static let leaveLobby = OperationName("leaveLobby")
    public static let observeLobby = OperationName("observeLobby")
    public static let watchLobby = OperationName("watchLobby")
    public static let removeLobbyPlayer = OperationName("removeLobbyPlayer")
    public static let rematchLobby = OperationName("rematchLobby")
}

extension Operation {
    public static func createLobby(_ arguments: CreateLobbyArguments) -> Operation { Operation(.createLobby, arguments) }
    public static func joinLobby(_ arguments: JoinLobbyArguments) -> Operation { Operation(.joinLobby, arguments) }
    public static func submitWord(_ arguments: SubmitWordArguments) -> Operation { Operation(.submitWord, arguments) }
    public static func leaveLobby(_ arguments: LobbyIdArguments) -> Operation { Operation(.leaveLobby, arguments) }
    public static func observeLobby(_ arguments: LobbyIdArguments) -> Operation { Operation(.observeLobby, arguments) }
    public static func watchLobby(_ arguments: LobbyCodeArguments) -> Operation { Operation(.watchLobby, arguments) }
    public static func removeLobbyPlayer(_ arguments: RemoveLobbyPlayerArguments) -> Operation { Operation(.removeLobbyPlayer, arguments) }
    public static func rematchLobby(_ arguments: LobbyIdArguments) -> Operation { Operation(.rematchLobby, arguments) }
}

extension OperationSpec {
    /// The word lobby operations (`startGame` is shared: `StartGameArguments`).
    static let wordLobby: [OperationSpec] = [
        OperationSpec(.createLobby, CreateLobbyArguments.self),
        OperationSpec(.joinLobby, JoinLobbyArguments.self),
        OperationSpec(.submitWord, SubmitWordArguments.self),
        OperationSpec(.leaveLobby, LobbyIdArguments.self),
        OperationSpec(.observeLobby, LobbyIdArguments.self),
        OperationSpec(.watchLobby, LobbyCodeArguments.self),
        OperationSpec(.removeLobbyPlayer, RemoveLobbyPlayerArguments.self),
        OperationSpec(.rematchLobby, LobbyIdArguments.self),
    ]
}
