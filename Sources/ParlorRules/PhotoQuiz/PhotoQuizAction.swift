/// Everything that can be done to a live quiz. Creating one is `PhotoQuiz.create`.
///
/// Stored as JSON when scheduled (`revealTiles`, `closeGuesses`), so the cases and their labels are a
/// storage format: add cases, never rename one.
public enum PhotoQuizAction: Sendable, Equatable, Codable {
    /// Take a seat, or change one's name when already seated.
    case join(playerName: String)
    /// Give up one's seat; the last one out deletes the quiz.
    case leave
    /// A member's photo, read and stored by the server, joins the quiz (before the start).
    case addPhoto(QuizPhoto)
    /// The host changes how the quiz will be played (before the start).
    case updateSettings(QuizSettings)
    /// The host starts the session: the photos are shuffled and the first one starts.
    case start
    /// The reveal timer: the tiles of round `round` whose time has come appear.
    case revealTiles(round: Int)
    /// The guess timer: round `round` is revealed.
    case closeGuesses(round: Int)
    case guess(GeoCoordinate)
    /// The host reveals the current photo before the timer does.
    case reveal
    /// The host moves on to the next photo (or, after the last, to the standings).
    case nextPhoto
    /// The host ends the session: standings.
    case quit
    /// The host takes a player's seat away (`Kickable`, `PhotoQuiz+Kick`).
    case removePlayer(UserID)
    /// The kernel records the rematch's code (`Rematchable`); no client sends it.
    case recordRematch(code: String)
    /// The host makes another player the host (`HostHandover`, `transferHost` on the wire).
    case handOverHost(to: UserID)
}
