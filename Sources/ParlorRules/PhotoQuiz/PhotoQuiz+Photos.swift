/// Before the start: photos arrive, and the host settles how the session is played.
extension PhotoQuiz {
    /// A member's photo joins the quiz; the server made its id and read its answer from its EXIF.
    mutating func addPhoto(_ photo: QuizPhoto, by user: UserID) throws(PhotoQuizError) -> [PhotoQuizEvent] {
        guard isMember(user) else { throw .notMember }
        guard phase == .waiting else { throw .invalidState(reason: "Photos can be added only before the quiz starts.") }
        guard photos.count < QuizLimits.maxPhotos else { throw .tooManyPhotos(limit: QuizLimits.maxPhotos) }
        guard photo.uploadedBy == user, !photos.contains(where: { $0.id == photo.id }) else {
            throw .invalidInput(field: "photo", reason: "The photo is not this upload's.")
        }
        var photo = photo
        photo.isRevealed = false
        photos.append(photo)
        version += 1
        return [.photoAdded(photo.id)]
    }

    mutating func updateSettings(_ settings: QuizSettings, by user: UserID) throws(PhotoQuizError) -> [PhotoQuizEvent] {
        try requireHost(user, to: "change the settings")
        guard phase == .waiting else { throw .invalidState(reason: "The settings can be changed only before the quiz starts.") }
        guard settings != self.settings else { return [] }
        self.settings = settings
        version += 1
        return [.settingsChanged]
    }

    /// The albums the uploads named, with how many photos each holds, in the order they first appeared.
    public var albums: [(name: String, photoCount: Int)] {
        var albums: [(name: String, photoCount: Int)] = []
        for photo in photos {
            if let index = albums.firstIndex(where: { $0.name == photo.album }) {
                albums[index].photoCount += 1
            } else {
                albums.append((photo.album, 1))
            }
        }
        return albums
    }

    /// Refuses chosen albums that hold no photo: only albums with located photos can be picked, and
    /// every uploaded photo has a location.
    func checkAlbums() throws(PhotoQuizError) {
        let known = Set(photos.map(\.album))
        for album in settings.albums where !known.contains(album) {
            throw .invalidInput(field: "albums", reason: "albums names \"\(Self.clipped(album))\", which holds no photos in this quiz.")
        }
    }

    private static func clipped(_ text: String) -> String { PhotoQuizError.clip(text) }
}
