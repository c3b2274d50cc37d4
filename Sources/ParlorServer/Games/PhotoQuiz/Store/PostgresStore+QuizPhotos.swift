// Built only with the PostgreSQL trait (`swift build --traits PostgreSQL`): see Package.swift.
#if PostgreSQL
/// In the database a cluster's nodes share: each photo in the files of bucket `quiz-photos`
/// (`PostgresQuizPhotoStore`), so any node serves a photo or tile another received.
extension PostgresStore: QuizPhotoStorage {
    func quizPhotos(_: ServerConfiguration) throws -> any QuizPhotoStore {
        PostgresQuizPhotoStore(files: PostgresObjectStorage(store: self, bucket: "quiz-photos"))
    }
}
#endif
