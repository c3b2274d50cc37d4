/// Where a kind of store keeps the quizzes' photos (`QuizPhotoStore`): every kind of store offers it
/// (`InMemoryStore+QuizPhotos`, `SQLiteStore+QuizPhotos`, `PostgresStore+QuizPhotos`), as it offers the
/// word game's catalog. A store of this node's own keeps them beside it, as files (or in memory); the
/// shared database of a cluster keeps them itself, so any node serves a photo or tile another received.
protocol QuizPhotoStorage: Sendable {
    /// The photo store for quizzes run with `configuration`.
    func quizPhotos(_ configuration: ServerConfiguration) throws -> any QuizPhotoStore
}

extension QuizPhotoStorage {
    /// Photos on this node: in `--photo-dir`, else in the data directory's `photos` when the server
    /// persists, else in memory.
    func photosOnThisNode(_ configuration: ServerConfiguration) throws -> any QuizPhotoStore {
        if let directory = configuration.photoQuiz.photoDirectory {
            return try DirectoryQuizPhotoStore(directory: directory)
        } else if configuration.persist {
            return try DirectoryQuizPhotoStore(directory: configuration.dataDirectory + "/photos")
        } else {
            return InMemoryQuizPhotoStore()
        }
    }
}

extension StoreBackend {
    /// This store's place for the quizzes' photos.
    var quizPhotoStorage: any QuizPhotoStorage {
        switch self {
        case .memory(let store): store
        case .sqlite(let store): store
        #if PostgreSQL
        case .postgres(let store): store
        #endif
        }
    }
}
