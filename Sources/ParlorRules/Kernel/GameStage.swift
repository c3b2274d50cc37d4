/// Where a live game is in its life, for operators (`parlor_games{phase=…}` on `/metrics`): gathering
/// players, being played, or over and kept only until its players leave or it expires.
public enum GameStage: String, Sendable, CaseIterable {
    case waiting
    case playing
    case finished
}
