/// The host removes a player from a quiz (`Kickable`; `removeQuizPlayer` on the wire).
///
/// Decisions:
/// - Only the host (NOT_HOST for the other players), and not themselves: they leave, and the quiz
///   passes on.
/// - Before and during the session alike; for the removed player it is leaving: their seat and points
///   go, their guess at the current photo goes, and when everyone left has guessed it, it is revealed.
///   The photos they uploaded stay in the quiz: they are the quiz's now, and the others may guess them.
/// - A finished quiz keeps its standings: removing then is INVALID_STATE.
extension PhotoQuiz: Kickable {
    public static func kick(_ player: UserID) -> PhotoQuizAction { .removePlayer(player) }
}
