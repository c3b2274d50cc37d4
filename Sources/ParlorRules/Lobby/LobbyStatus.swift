/// A lobby is `OPEN` (before the first round and between rounds: people can join, the creator can
/// start), in a `GAME` (a round is running), or `FINISHED` (its match's last round is over: the
/// results stay, nothing more is played; a rematch starts a new lobby).
public enum LobbyStatus: String, Sendable, Equatable, Codable {
    case open = "OPEN"
    case game = "GAME"
    case finished = "FINISHED"
}
