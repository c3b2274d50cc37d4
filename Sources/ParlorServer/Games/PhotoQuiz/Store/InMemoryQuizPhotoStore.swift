import NIOConcurrencyHelpers
import ParlorRules

/// Photos in memory (`--no-persist`, tests): gone when the server stops.
final class InMemoryQuizPhotoStore: QuizPhotoStore {
    private let photos = NIOLockedValueBox<[String: [String: QuizPhotoFiles]]>([:])

    init() {}

    func save(_ files: QuizPhotoFiles, quiz: String, photo: String) async throws(StoreError) {
        try QuizPhotoID.check(quiz)
        try QuizPhotoID.check(photo)
        photos.withLockedValue { $0[quiz, default: [:]][photo] = files }
    }

    func image(quiz: String, photo: String) async throws(StoreError) -> [UInt8]? {
        photos.withLockedValue { $0[quiz]?[photo]?.image }
    }

    func tile(_ tile: Int, quiz: String, photo: String) async throws(StoreError) -> [UInt8]? {
        photos.withLockedValue { photos in
            photos[quiz]?[photo].flatMap { $0.tiles.indices.contains(tile) ? $0.tiles[tile] : nil }
        }
    }

    func previews(quiz: String, photo: String) async throws(StoreError) -> TilePreviews? {
        photos.withLockedValue { $0[quiz]?[photo]?.previews }
    }

    func removePhoto(quiz: String, photo: String) async throws(StoreError) {
        photos.withLockedValue { photos in
            photos[quiz]?[photo] = nil
            if photos[quiz]?.isEmpty == true { photos[quiz] = nil }
        }
    }

    func removeQuiz(_ quiz: String) async throws(StoreError) {
        photos.withLockedValue { $0[quiz] = nil }
    }

    func quizzes() async throws(StoreError) -> [String] {
        photos.withLockedValue { Array($0.keys) }
    }
}
