import ParlorRules

/// Where a quiz's pixels live: each photo as served, its tiles, and their previews — files under
/// `--data-dir` (`DirectoryQuizPhotoStore`), or memory with `--no-persist` (`InMemoryQuizPhotoStore`).
/// A protocol, so that a cluster can keep them in its shared database instead. Ids are the server's own
/// (UUIDs); a store refuses any other.
protocol QuizPhotoStore: Sendable {
    /// Keeps a photo's files, durably, before the photo joins its quiz.
    func save(_ files: QuizPhotoFiles, quiz: String, photo: String) async throws(StoreError)
    /// The photo as served; nil when there is none.
    func image(quiz: String, photo: String) async throws(StoreError) -> [UInt8]?
    /// Tile `tile` (reading order) of the photo; nil when there is none.
    func tile(_ tile: Int, quiz: String, photo: String) async throws(StoreError) -> [UInt8]?
    func previews(quiz: String, photo: String) async throws(StoreError) -> TilePreviews?
    /// Forgets one photo (an upload the quiz refused at the last moment).
    func removePhoto(quiz: String, photo: String) async throws(StoreError)
    /// Forgets every photo of a quiz (it was deleted).
    func removeQuiz(_ quiz: String) async throws(StoreError)
    /// The quizzes that have photos here.
    func quizzes() async throws(StoreError) -> [String]
}

/// What is kept of one photo.
struct QuizPhotoFiles: Sendable, Equatable {
    /// The photo as served: upright, scaled, without metadata.
    var image: [UInt8]
    /// The tiles in reading order.
    var tiles: [[UInt8]]
    var previews: TilePreviews
}

/// The ids a photo store accepts as names: UUIDs, or anything as tame (letters, digits, `-`).
enum QuizPhotoID {
    static func check(_ id: String) throws(StoreError) {
        guard !id.isEmpty, id.utf8.count <= 64, id.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || isAlphanumeric($0) }) else {
            throw StoreError(.failed, "\"\(id.prefix(64))\" is not a photo store id")
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
