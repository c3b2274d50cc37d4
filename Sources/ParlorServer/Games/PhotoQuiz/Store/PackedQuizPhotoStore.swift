import ParlorRules

/// A photo store that keeps each photo as its pack (`PhotoPack`) and reads one part of it at a time:
/// on disk (`DirectoryQuizPhotoStore`) or in the shared database (`PostgresQuizPhotoStore`). Which part
/// is the photo, a tile or the previews is decided here, once.
protocol PackedQuizPhotoStore: QuizPhotoStore {
    /// Part `index` of the photo's pack; nil when there is no such photo.
    func part(_ index: Int, quiz: String, photo: String) async throws(StoreError) -> [UInt8]?
}

extension PackedQuizPhotoStore {
    func image(quiz: String, photo: String) async throws(StoreError) -> [UInt8]? {
        try await part(0, quiz: quiz, photo: photo)
    }

    func tile(_ tile: Int, quiz: String, photo: String) async throws(StoreError) -> [UInt8]? {
        guard (0..<QuizLimits.tileCount).contains(tile) else { return nil }
        return try await part(1 + tile, quiz: quiz, photo: photo)
    }

    func previews(quiz: String, photo: String) async throws(StoreError) -> TilePreviews? {
        try await part(1 + QuizLimits.tileCount, quiz: quiz, photo: photo).flatMap(PhotoPack.decodePreviews)
    }
}
