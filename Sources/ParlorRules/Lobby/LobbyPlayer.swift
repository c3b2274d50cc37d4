/// How a player shows up in a lobby, as sent by `createLobby` / `joinLobby`.
public struct LobbyProfile: Sendable, Equatable, Codable {
    public var username: String
    public var colorNumber: Int
    public var emojiNumber: Int

    public init(username: String, colorNumber: Int, emojiNumber: Int) {
        self.username = username
        self.colorNumber = colorNumber
        self.emojiNumber = emojiNumber
    }

    /// The profile with a trimmed username, or `invalidArgument` naming the first bad field.
    public func validated() throws(LobbyError) -> LobbyProfile {
        let name: String
        switch DisplayName.validate(username, maxCharacters: WordRules.usernameMaxCharacters) {
        case .success(let trimmed): name = trimmed
        case .failure(let problem):
            throw .invalidArgument(field: "username", reason: DisplayName.sentence(for: problem, field: "username"))
        }
        for (field, value, range) in [
            ("colorNumber", colorNumber, WordRules.colorNumbers), ("emojiNumber", emojiNumber, WordRules.emojiNumbers),
        ] where !range.contains(value) {
            throw .invalidArgument(
                field: field, reason: "\(field) must be between \(range.lowerBound) and \(range.upperBound) (got \(value)).")
        }
        return LobbyProfile(username: name, colorNumber: colorNumber, emojiNumber: emojiNumber)
    }
}

/// A seat in a word lobby.
public struct LobbyPlayer: Sendable, Equatable, Codable, Identifiable {
    public let userId: UserID
    public internal(set) var profile: LobbyProfile
    /// Running total over the lobby's rounds.
    public internal(set) var score: Int

    public var id: UserID { userId }
    public var username: String { profile.username }
    public var colorNumber: Int { profile.colorNumber }
    public var emojiNumber: Int { profile.emojiNumber }
}
