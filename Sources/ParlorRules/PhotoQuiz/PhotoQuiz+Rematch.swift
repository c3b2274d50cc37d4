/// A rematch of a finished quiz (`Rematchable`; the kernel's `GameHost.rematch` creates and files it):
/// the same host and players, in seat order (the host first, as always), with fresh scores, and the same settings. The old quiz
/// records the new code, so everyone following it goes on to it.
///
/// Decisions:
/// - Only the host starts a rematch, as only the host starts and runs a quiz (darts' host and rummy's
///   moderator alike). Asking again answers the same code.
/// - The photos do not carry over: every answer has been shown, so the new quiz waits for new uploads
///   before the host starts it. The chosen albums go with them (they named the old photos); the reveal
///   speed, the timer and the session length stay.
/// - The new quiz's shuffles come from a seed drawn from the old one's, so the rules stay pure.
extension PhotoQuiz: Rematchable {
    public var rematchCode: String? { rematch?.rawValue }

    public func rematch(by user: UserID, id: String, code: String, at now: Instant) throws(PhotoQuizError) -> PhotoQuiz {
        try requireHost(user, to: "start a rematch")
        guard phase == .complete else { throw Self.notOver }
        var generator = SeededGenerator(seed: seed, stream: Self.rematchStream)
        var settings = settings
        settings.albums = []
        return PhotoQuiz(
            id: id, code: QuizCode(uncheckedRawValue: code), createdAt: now, seed: generator.next(), hostId: hostId,
            settings: settings, players: players.map { QuizPlayer(id: $0.id, name: $0.name) }, photos: [], phase: .waiting,
            playlist: [], pass: 0, round: nil, finishedAt: nil, rematch: nil, version: 1)
    }

    public static func recordRematch(code: String) -> PhotoQuizAction { .recordRematch(code: code) }

    mutating func recordRematch(_ code: QuizCode) throws(PhotoQuizError) -> [PhotoQuizEvent] {
        guard phase == .complete else { throw Self.notOver }
        if let rematch { throw .invalidState(reason: "A rematch was already started: quiz \(rematch).") }
        rematch = code
        version += 1
        return [.rematchStarted(code)]
    }

    /// The seed stream the rematch's seed is drawn from (photo orders are 1, tiles 2, in the low byte).
    private static let rematchStream: UInt64 = 3
    private static let notOver = PhotoQuizError.invalidState(reason: "The quiz is not over yet; a rematch starts once it is.")
}
