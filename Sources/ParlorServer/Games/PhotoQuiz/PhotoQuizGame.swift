import Foundation
import ParlorRules
import ParlorWire

/// Photo quizzes on the kernel: 5-letter codes (`QuizCode`), opaque UUID ids (a code is reused; the id
/// names the quiz's photo files), the public `quiz` event with the server's clock, and the rules' own
/// Codable form as the stored state. The rules read tile previews from the preview cache.
struct PhotoQuizGame: GameDefinition {
    typealias Rules = PhotoQuiz
    typealias Code = QuizCode

    static let kind = GameKind("photo-quiz", noun: "quiz", plural: "quizzes")

    let codeSpace: CodeSpace
    let maxGames: Int
    let previews: QuizPreviewCache

    func newID(code: QuizCode) -> String { Self.randomID() }

    func id(of quiz: PhotoQuiz) -> String { quiz.id }
    func code(of quiz: PhotoQuiz) -> QuizCode { quiz.code }

    func parse(code: String) throws(WireError) -> QuizCode {
        do {
            return try QuizCode(validating: code)
        } catch {
            throw WireError(error)
        }
    }

    func notFound(code: QuizCode) -> WireError { WireError(PhotoQuizError.quizNotFound(code: code.rawValue)) }
    func notFound(id: String) -> WireError { WireError(.quizNotFound, "The quiz is over: everyone left it.") }
    func wireError(_ failure: PhotoQuizError) -> WireError { WireError(failure) }

    func environment() -> PhotoQuizEnvironment { PhotoQuizEnvironment(previews: previews) }

    let publicEvent = EventName.quiz

    /// The public view with `serverTime`, the clock when this version was published, so a client can
    /// count down to `guessDeadline` on the server's time rather than its own.
    func encodePublicView(_ quiz: PhotoQuiz, at now: Instant) throws(WireError) -> EncodedJSON {
        try EncodedJSON.encoding(QuizView(quiz.publicView, serverTime: now))
    }

    static func storedJSON(_ quiz: PhotoQuiz) throws(StoreError) -> String {
        try StoredJSON.encode(quiz, what: "quiz \(quiz.id)")
    }

    static func decodeStored(_ json: String) throws -> PhotoQuiz {
        try JSONDecoder().decode(PhotoQuiz.self, from: Data(json.utf8))
    }
}
