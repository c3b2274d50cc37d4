/// Beside `parlor.sqlite`: the photos on this node (`QuizPhotoStorage`), files next to the database.
extension SQLiteStore: QuizPhotoStorage {
    func quizPhotos(_ configuration: ServerConfiguration) throws -> any QuizPhotoStore {
        try photosOnThisNode(configuration)
    }
}
