/// A lobby is `OPEN` (before the first round and between rounds: people can join, the creator can
/// start) or in a `GAME` (a round is running).
public enum LobbyStatus: String, Sendable, Equatable, Codable {
    case open = "OPEN"
    case game = "GAME"
}
