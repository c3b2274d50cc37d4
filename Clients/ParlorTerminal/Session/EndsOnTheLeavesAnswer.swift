import ParlorClient
import ParlorRules

/// A screen that says when its place (match, quiz, lobby, game) was deleted.
protocol DeletableScreen: GameScreen {
    var deleted: Bool { get set }
}

/// How a session that sent its leave ends, the same in darts, quizzes, word games and tic-tac-toe:
/// the place going (when we were the last) or its stream ending is the leave's echo, not news, so the
/// session ends on the leave's answer instead and a script always sees `left`. A leave that fails
/// leaves the session as it was, or ends it if the place went meanwhile. (Rummy rooms keep every
/// action in flight, not just the leave, to tell their echoes from news: `RoomGame`.)
///
/// A game gets `streamEnded` and `starting` from here, and calls `deletion`, `leaveAnswered` and
/// `failure` from its own reactions.
protocol EndsOnTheLeavesAnswer: TerminalGame where Screen: DeletableScreen {
    /// A leave was sent and not yet answered.
    var leaving: Bool { get set }
}

extension EndsOnTheLeavesAnswer {
    func streamEnded() -> SessionEnding? {
        if leaving { return nil }
        return screen.deleted ? .deleted : .connectionClosed
    }

    mutating func starting(_ action: Action) {
        if action == .leave { leaving = true }
    }

    /// The place was deleted: `gone` reports it, and the session ends unless this is our leave's echo.
    mutating func deletion(_ gone: Output) -> Step {
        screen.deleted = true
        return Step(outputs: [gone], ending: leaving ? nil : .deleted)
    }

    /// A newer view (reported by `outputs`) that no longer seats this terminal, unless it left: the
    /// host removed it (`KickRule`), and the session ends saying so. Nil when it is still seated.
    func removal(seatedBefore before: [UserID], now after: [UserID], outputs: [Output]) -> Step? {
        guard KickRule.removed(me: screen.me, before: before, after: after, leaving: leaving) else { return nil }
        return Step(outputs: outputs + [.removed(code: screen.code)], ending: .removed)
    }

    /// After an answered action's own outputs: a leave's answer says `left` and ends the session.
    /// Whether it did.
    @discardableResult
    func leaveAnswered(_ action: Action, _ step: inout Step) -> Bool {
        guard action == .leave else { return false }
        step.outputs.append(.left(code: screen.code))
        step.ending = .left
        return true
    }

    /// An action failed: the message line shows `sentence` (the error's own by default) and an
    /// `error` line reports it.
    mutating func failure(_ action: Action, _ error: ParlorClientError, sentence: String? = nil) -> Step {
        let sentence = sentence ?? error.description
        screen.message = ScreenMessage(sentence, isError: true)
        var step = Step(outputs: [.error(action: action.name, code: error.serverCode?.rawValue, message: sentence)])
        if action == .leave {
            leaving = false
            if screen.deleted { step.ending = .deleted }
        }
        return step
    }
}
