import ParlorClient
import ParlorRules
import ParlorWire

/// Photo quizzes on the terminal: create, join or watch a quiz by its code; typing and `/` commands are
/// `QuizScreenState.handle` and `QuizInput`; the screen is `QuizScreen`, with a countdown. A finished
/// quiz's rematch takes the session on to it, seated or watching.
struct QuizGame: EndsOnTheLeavesAnswer {
    enum Entry: Sendable {
        case create(CreateQuizArguments, places: PlaceLookup)
        case join(code: String, playerName: String, places: PlaceLookup)
        case watch(code: String, places: PlaceLookup)
    }

    static let render = QuizScreen.render
    static let placeName = "quiz"

    var screen: QuizScreenState
    var leaving = false

    init(screen: QuizScreenState) {
        self.screen = screen
    }

    // MARK: Reactions

    mutating func receive(_ quiz: QuizView?, at time: Instant, mode _: SessionMode) -> Step {
        guard let quiz else { return deletion(.quiz(nil)) }
        let seated = screen.quiz?.players.map(\.id) ?? []
        guard screen.receive(quiz, at: time) else { return Step() }
        if let removal = removal(seatedBefore: seated, now: quiz.players.map(\.id), outputs: [.quiz(quiz)]) { return removal }
        if let rematch = quiz.rematch?.rawValue {
            // The players are seated in the rematch already; everyone following goes on to it.
            return Step(outputs: [.quiz(quiz), .rematch(code: rematch)], ending: .rematch(code: rematch))
        }
        return Step(outputs: [.quiz(quiz)])
    }

    mutating func press(_ key: Key) -> QuizAction? {
        if key == .enter { screen.message = nil }
        return screen.handle(key)
    }

    func scriptRequest(_ line: String) -> Result<ScriptRequest<QuizAction>, ScriptCommandError>? {
        QuizInput.parseScript(line).map { parsed in
            parsed.flatMap { input in
                if input == .showQuiz { return .success(.show) }
                var screen = screen
                guard let action = screen.action(for: input) else {
                    return .failure(ScriptCommandError(screen.message?.text ?? "That cannot be done now."))
                }
                return .success(.action(action))
            }
        }
    }

    var snapshot: [QuizOutput] {
        screen.quiz.map { [.quiz($0)] } ?? []
    }

    mutating func succeeded(_ action: QuizAction, with quiz: QuizView?, mode: SessionMode) -> Step {
        var step = Step()
        let photoId = screen.quiz?.currentPhoto?.photoId
        if let quiz, screen.receive(quiz, at: screen.now) { step.outputs.append(.quiz(quiz)) }
        step.outputs.append(.done(action))
        switch action {
        case .leave:
            leaveAnswered(action, &step)
        case .guess(let latitude, let longitude, let place):
            let text = place.map { "\($0) (\(QuizScreen.position(latitude, longitude)))" } ?? QuizScreen.position(latitude, longitude)
            if let photoId { screen.myGuess = (photoId, text) }
            if mode == .interactive { screen.message = QuizScreenState.Message("Guessed \(text).") }
        default:
            break
        }
        return step
    }

    mutating func failed(_ action: QuizAction, with error: ParlorClientError) -> Step {
        failure(action, error)
    }

    mutating func tick(_ now: Instant) {
        screen.now = now
    }

    func farewellAfterQuit(clientArguments: [String]) -> String? {
        guard !screen.deleted, screen.quiz?.phase != .complete else { return nil }
        return ComeBackCommand.farewell(
            game: ["parlor", "quiz"], place: "quiz", code: screen.code, seated: screen.myPlayer != nil, clientArguments: clientArguments)
    }

    // MARK: The server

    static func enter(
        _ entry: Entry, client: ParlorClient
    ) async throws(ParlorClientError) -> (screen: QuizScreenState, outputs: [QuizOutput]) {
        let seat: QuizSeatResult
        let places: PlaceLookup
        switch entry {
        case .create(let arguments, let lookup):
            seat = try await client.createQuiz(arguments)
            places = lookup
        case .join(let code, let playerName, let lookup):
            seat = try await client.joinQuiz(code: code, playerName: playerName)
            places = lookup
        case .watch(let code, let lookup):
            return (QuizScreenState(server: client.server.url, code: code, places: lookup, now: DeviceClock.now()), [])
        }
        var screen = QuizScreenState(server: client.server.url, code: seat.quiz.code.rawValue, me: seat.currentUserId, places: places, now: DeviceClock.now())
        _ = screen.receive(seat.quiz, at: DeviceClock.now())
        return (screen, [.seat(seat)])
    }

    static func follow(_ screen: QuizScreenState, client: ParlorClient) async throws(ParlorClientError) -> AsyncStream<QuizView?> {
        try await client.observeQuiz(code: screen.code)
    }

    /// The quiz the server answers with, if any.
    static func perform(
        _ action: QuizAction, in screen: QuizScreenState, client: ParlorClient
    ) async throws(ParlorClientError) -> QuizView? {
        let code = screen.code
        switch action {
        case .start: return try await client.startQuiz(code: code)
        case .guess(let latitude, let longitude, _): return try await client.submitGuess(code: code, latitude: latitude, longitude: longitude)
        case .reveal: return try await client.reveal(code: code)
        case .next: return try await client.nextPhoto(code: code)
        case .end: return try await client.quitQuiz(code: code)
        case .kick(let player): return try await client.removeQuizPlayer(code: code, playerId: player)
        case .rematch:
            // The rematch's code comes on the old quiz's stream too, and the session follows it there.
            _ = try await client.rematchQuiz(code: code)
            return nil
        case .leave:
            try await client.leaveQuiz(code: code)
            return nil
        case .quit: return nil
        }
    }

    static func refusal(_ error: ParlorClientError, entering _: Entry) -> String {
        error.description
    }

    /// The players are seated in the rematch already: watching it is taking the seat. Place names are
    /// looked up as before.
    static func rematchEntry(code: String, from screen: QuizScreenState) -> Entry? {
        .watch(code: code, places: screen.places ?? PlaceLookup(path: nil))
    }
}

extension QuizScreenState: DeletableScreen {}
extension QuizAction: GameAction {}
