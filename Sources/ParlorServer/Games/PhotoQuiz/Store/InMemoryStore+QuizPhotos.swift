/// Beside a store in memory (`--no-persist`, tests): the photos on this node (`QuizPhotoStorage`).
extension InMemoryStore: QuizPhotoStorage {
    func quizPhotos(_ configuration: ServerConfiguration) throws -> any QuizPhotoStore {
        try photosOnThisNode(configuration)
    }
}
