import Foundation
import NIOHTTP1
import ParlorRules
import ParlorWire

// The photo quiz operations (issue 16, seed `photo-quiz-model.md`), typed. Photos go up over HTTP
// (`uploadPhoto`); everything else is on the WebSocket.

extension ParlorClient {
    /// Creates a quiz with the caller as host; absent settings are the caller's saved defaults.
    public func createQuiz(_ arguments: CreateQuizArguments) async throws(ParlorClientError) -> QuizSeatResult {
        try await call(ParlorWire.Operation.createQuiz, arguments)
    }

    /// Takes a seat (or returns the one the caller already has).
    public func joinQuiz(code: String, playerName: String) async throws(ParlorClientError) -> QuizSeatResult {
        try await call(ParlorWire.Operation.joinQuiz, JoinQuizArguments(code: code, playerName: playerName))
    }

    public func leaveQuiz(code: String) async throws(ParlorClientError) {
        _ = try await call(ParlorWire.Operation.leaveQuiz, QuizCodeArguments(code: code))
    }

    /// Starts the quiz (host only): the photos are shuffled and the first is revealed.
    public func startQuiz(code: String) async throws(ParlorClientError) -> QuizView {
        try await call(ParlorWire.Operation.startQuiz, QuizCodeArguments(code: code))
    }

    /// Guesses where the current photo was taken; a second guess replaces the first until the reveal.
    public func submitGuess(code: String, latitude: Double, longitude: Double) async throws(ParlorClientError) -> QuizView {
        try await call(ParlorWire.Operation.submitGuess, SubmitGuessArguments(code: code, latitude: latitude, longitude: longitude))
    }

    /// Reveals the current photo now (host only).
    public func reveal(code: String) async throws(ParlorClientError) -> QuizView {
        try await call(ParlorWire.Operation.reveal, QuizCodeArguments(code: code))
    }

    /// Moves on to the next photo, or to the standings after the last (host only).
    public func nextPhoto(code: String) async throws(ParlorClientError) -> QuizView {
        try await call(ParlorWire.Operation.nextPhoto, QuizCodeArguments(code: code))
    }

    /// Ends the quiz with the standings (host only).
    public func quitQuiz(code: String) async throws(ParlorClientError) -> QuizView {
        try await call(ParlorWire.Operation.quitQuiz, QuizCodeArguments(code: code))
    }

    /// Starts the next quiz of a finished one (the host): the same players and settings, no photos yet.
    /// Answers its code; the old quiz's stream names it too (`QuizView.rematch`).
    public func rematchQuiz(code: String) async throws(ParlorClientError) -> String {
        try await call(ParlorWire.Operation.rematchQuiz, QuizCodeArguments(code: code)).code
    }

    /// Takes a player's seat away (the host; not once the quiz is over). Answers the quiz without them.
    public func removeQuizPlayer(code: String, playerId: UserID) async throws(ParlorClientError) -> QuizView {
        try await call(ParlorWire.Operation.removeQuizPlayer, RemoveQuizPlayerArguments(code: code, playerId: playerId))
    }

    public func getQuiz(code: String) async throws(ParlorClientError) -> QuizView {
        try await call(ParlorWire.Operation.getQuiz, QuizCodeArguments(code: code))
    }

    /// The quiz's every change, from its current state on: a `QuizView` per version, `nil` when the quiz
    /// is deleted (the stream then ends). Survives reconnects like ``observeMatch(code:)``.
    public func observeQuiz(code: String) async throws(ParlorClientError) -> AsyncStream<QuizView?> {
        try await follow(.quiz, key: code)
    }

    /// Uploads a JPEG to quiz `code` before it starts (`POST /quizzes/{code}/photos?album=NAME`), as the
    /// signed-in user: the photo's id, album and date — the server keeps where it was taken to itself.
    public func uploadPhoto(code: String, jpeg: [UInt8], album: String? = nil) async throws(ParlorClientError) -> PhotoUploadResult {
        _ = try await currentUserID()
        guard let token = configuration.tokenStore.token(for: configuration.tokenKey) else {
            throw .notConnected(reason: "not signed in yet")
        }
        var path = "/quizzes/\(Self.pathSegment(Self.normalizedCode(code)))/photos"
        if let album { path += "?album=" + Self.pathSegment(album) }
        let response = try await HTTPExchange.perform(
            .POST, path: path, to: configuration.server, tls: configuration.webSocket.tls,
            headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "image/jpeg")], body: jpeg,
            timeout: configuration.uploadTimeout)
        return try response.decode(PhotoUploadResult.self, operation: "the upload")
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters, for a path segment or query value.
    static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

extension GameStream where Update == QuizView? {
    /// A photo quiz's stream: the `quiz` event, null when the quiz is deleted.
    public static let quiz = GameStream(
        "quiz", observe: ParlorWire.Operation.observeQuiz, arguments: { QuizCodeArguments(code: $0) }, event: .quiz,
        gone: [.quizNotFound, .invalidInput, .notFound])
}

extension QuizView: VersionedView {
    public var version: Int { quiz.version }
}
