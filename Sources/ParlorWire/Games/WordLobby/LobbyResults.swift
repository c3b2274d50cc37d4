import ParlorRules

/// The reply to `createLobby` (the seed's shape).
public struct CreateLobbyResult: Sendable, Equatable, Codable {
    public let lobbyId: String
    public let lobbyCode: String

    public init(lobbyId: String, lobbyCode: LobbyCode) {
        self.lobbyId = lobbyId
        self.lobbyCode = lobbyCode.rawValue
    }
}

/// The reply to `joinLobby` (the seed's shape).
public struct JoinLobbyResult: Sendable, Equatable, Codable {
    public let lobbyId: String

    public init(lobbyId: String) { self.lobbyId = lobbyId }
}

/// The reply to `submitWord`, and one word in a player's list: `{accepted, word, reason?}`.
public struct WordVerdictResult: Sendable, Equatable, Codable {
    public let accepted: Bool
    public let word: String
    public let reason: String?

    public init(_ verdict: WordVerdict) {
        accepted = verdict.accepted
        word = verdict.word
        reason = verdict.reason
    }
}

/// The reply to `watchLobby`: the subscription, the server's clock, and the lobby the code names.
public struct LobbyWatched: Sendable, Equatable, Codable {
    public let subscription: Int
    public let serverTime: String
    public let lobbyId: String

    public init(subscription: Int, serverTime: String, lobbyId: String) {
        self.subscription = subscription
        self.serverTime = serverTime
        self.lobbyId = lobbyId
    }
}
