// Built only with the PostgreSQL trait (`swift build --traits PostgreSQL`): see Package.swift.
#if PostgreSQL
import ParlorRules

/// A quiz's photos in the shared database (`--postgres`), so any node serves a photo or tile another
/// node received: each photo is its pack (`PhotoPack`, as on disk) in one row of `files`, folder the
/// quiz, name the photo; a tile is read as two small ranges of it, the header and the tile.
final class PostgresQuizPhotoStore: PackedQuizPhotoStore {
    private let files: PostgresObjectStorage

    init(files: PostgresObjectStorage) {
        self.files = files
    }

    func save(_ photoFiles: QuizPhotoFiles, quiz: String, photo: String) async throws(StoreError) {
        try QuizPhotoID.check(quiz)
        try QuizPhotoID.check(photo)
        try await files.write(try PhotoPack.encode(photoFiles), folder: quiz, name: photo)
    }

    func removePhoto(quiz: String, photo: String) async throws(StoreError) {
        try QuizPhotoID.check(quiz)
        try QuizPhotoID.check(photo)
        try await files.remove(folder: quiz, name: photo)
    }

    func removeQuiz(_ quiz: String) async throws(StoreError) {
        try QuizPhotoID.check(quiz)
        try await files.remove(folder: quiz)
    }

    func quizzes() async throws(StoreError) -> [String] {
        try await files.folders()
    }

    /// Part `index` of a photo's pack: its header, then the part.
    func part(_ index: Int, quiz: String, photo: String) async throws(StoreError) -> [UInt8]? {
        try QuizPhotoID.check(quiz)
        try QuizPhotoID.check(photo)
        guard let (header, size) = try await files.read(folder: quiz, name: photo, offset: 0, length: PhotoPack.headerSize(through: index))
        else { return nil }
        guard let range = PhotoPack.location(ofPart: index, header: header, fileSize: size),
            let (bytes, _) = try await files.read(folder: quiz, name: photo, offset: range.lowerBound, length: range.count),
            bytes.count == range.count
        else {
            throw StoreError(.corrupt, "Photo \(photo) of quiz \(quiz) in the shared database (table files) is not a whole photo.")
        }
        return bytes
    }
}
#endif
