import ParlorRules

extension EventName {
    /// A photo quiz's view (`QuizView`), on every change; null data once the quiz is deleted.
    public static let quiz = EventName(rawValue: "quiz")
}

/// A photo quiz on the wire: the `quiz` event, and the reply of every operation that changes one. Built
/// from `PhotoQuiz.publicView`, so nothing unrevealed can reach it: no location, place or date before a
/// photo's reveal, no tile that has not appeared, nobody's guess before the reveal. The names are the
/// contract every client reads alike (issue 16); absent values are sent as null. Times are ISO-8601 UTC
/// with milliseconds, from the server's clock (`serverTime` says what it read when it sent the view).
public struct QuizView: Sendable, Equatable, Codable {
    /// How the quiz is played, as the rules keep it (the wire form is the same).
    public typealias Settings = QuizSettings

    /// A player as the rules show them to everyone (the wire form is the same).
    public typealias Player = QuizPublicView.Player
    public typealias Album = QuizPublicView.Album

    public struct CurrentPhoto: Sendable, Equatable, Codable {
        public let photoId: String
        public let uploadedBy: UserID
        /// Tiles 0…35 (reading order on the 6 × 6 grid) that have appeared, in the order they did.
        public let revealedTiles: [Int]
        /// The appeared tiles' previews: tile number (as text) → base64 of `previewWidth × previewHeight`
        /// RGB pixels.
        public let previews: [String: String]
        public let previewWidth: Int
        public let previewHeight: Int
        public let startedAt: String
        /// When the last tile appears.
        public let revealEndsAt: String
        /// When guessing closes (and the photo is revealed, if nothing revealed it sooner).
        public let guessDeadline: String
    }

    /// A position as the rules keep it (the wire form is the same).
    public typealias Coordinate = GeoCoordinate

    /// The seed's `LocationReveal`, once the photo is revealed.
    public struct Answer: Sendable, Equatable, Codable {
        public let coordinate: Coordinate
        public let city: String?
        public let country: String?
        /// `Jun 14, 2024`, or `Date unknown`.
        public let displayDate: String
        /// The camera's local date and time (`2024-06-14T09:30:00+02:00`, the offset when known); null
        /// when the photo has no date.
        public let takenAt: String?
        /// No place could be named: show the coordinates only.
        public let isOffline: Bool

        private enum CodingKeys: String, CodingKey { case coordinate, city, country, displayDate, takenAt, isOffline }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(coordinate, forKey: .coordinate)
            try container.encode(city, forKey: .city)
            try container.encode(country, forKey: .country)
            try container.encode(displayDate, forKey: .displayDate)
            try container.encode(takenAt, forKey: .takenAt)
            try container.encode(isOffline, forKey: .isOffline)
        }
    }

    public struct Guess: Sendable, Equatable, Codable {
        public let playerId: UserID
        public let latitude: Double
        public let longitude: Double
        /// Great-circle (haversine) distance to the answer, in kilometres.
        public let distanceKm: Double
        public let points: Int
    }

    /// 1 for the highest score; ties share a rank (the wire form is the rules' own).
    public typealias Standing = QuizPublicView.Standing

    public let id: String
    public let code: String
    /// `waiting`, `revealing`, `revealed` or `complete`.
    public let phase: String
    public let hostId: UserID
    public let settings: Settings
    public let players: [Player]
    /// Photos uploaded.
    public let uploadCount: Int
    public let albums: [Album]
    /// Photos the session plays (per pass, for an endless session).
    public let photoCount: Int
    /// The current photo's place in the session, from 0; null before the start and once complete.
    public let photoIndex: Int?
    public let currentPhoto: CurrentPhoto?
    public let answer: Answer?
    /// Every guess at the revealed photo, best first; null before the reveal.
    public let guesses: [Guess]?
    /// Every player by score, once complete; null before.
    public let standings: [Standing]?
    public let createdAt: String
    public let finishedAt: String?
    /// The rematch's code, once the host started one: everyone following this quiz goes there.
    public let rematch: String?
    public let version: Int
    /// The server's clock when it sent this version; the server adds it, so a view built here has none.
    public var serverTime: String?

    public init(_ view: QuizPublicView) {
        id = view.id
        code = view.code.rawValue
        phase = view.phase.rawValue
        hostId = view.hostId
        settings = view.settings
        players = view.players
        uploadCount = view.uploadCount
        albums = view.albums
        photoCount = view.photoCount
        photoIndex = view.photoIndex
        currentPhoto = view.currentPhoto.map { photo in
            CurrentPhoto(
                photoId: photo.photoId, uploadedBy: photo.uploadedBy, revealedTiles: photo.revealedTiles,
                previews: Dictionary(uniqueKeysWithValues: photo.previews.map { (String($0.key), $0.value) }),
                previewWidth: photo.previewWidth, previewHeight: photo.previewHeight, startedAt: photo.startedAt.iso8601,
                revealEndsAt: photo.revealEndsAt.iso8601, guessDeadline: photo.guessDeadline.iso8601)
        }
        answer = view.answer.map { answer in
            Answer(
                coordinate: answer.coordinate, city: answer.city,
                country: answer.country, displayDate: answer.displayDate, takenAt: answer.takenAt?.iso8601, isOffline: answer.isOffline)
        }
        guesses = view.guesses?.map {
            Guess(
                playerId: $0.playerId, latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude, distanceKm: $0.distanceKm,
                points: $0.points)
        }
        standings = view.standings
        createdAt = view.createdAt.iso8601
        finishedAt = view.finishedAt?.iso8601
        rematch = view.rematch?.rawValue
        version = view.version
        serverTime = nil
    }

    private enum CodingKeys: String, CodingKey {
        case id, code, phase, hostId, settings, players, uploadCount, albums, photoCount, photoIndex, currentPhoto, answer, guesses
        case standings, createdAt, finishedAt, rematch, version, serverTime
    }

    /// Every field, nulls included, so a client can tell "none" from "not sent".
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(code, forKey: .code)
        try container.encode(phase, forKey: .phase)
        try container.encode(hostId, forKey: .hostId)
        try container.encode(settings, forKey: .settings)
        try container.encode(players, forKey: .players)
        try container.encode(uploadCount, forKey: .uploadCount)
        try container.encode(albums, forKey: .albums)
        try container.encode(photoCount, forKey: .photoCount)
        try container.encode(photoIndex, forKey: .photoIndex)
        try container.encode(currentPhoto, forKey: .currentPhoto)
        try container.encode(answer, forKey: .answer)
        try container.encode(guesses, forKey: .guesses)
        try container.encode(standings, forKey: .standings)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(finishedAt, forKey: .finishedAt)
        try container.encode(rematch, forKey: .rematch)
        try container.encode(version, forKey: .version)
        try container.encodeIfPresent(serverTime, forKey: .serverTime)
    }
}

/// `createQuiz` and `joinQuiz`: `{quiz, currentUserId}`.
public struct QuizSeatResult: Sendable, Equatable, Codable {
    public let quiz: QuizView
    public let currentUserId: UserID

    public init(quiz: QuizView, currentUserId: UserID) {
        self.quiz = quiz
        self.currentUserId = currentUserId
    }
}

/// `POST /quizzes/{code}/photos`: the photo's id, its album and when it was taken — never where.
public struct PhotoUploadResult: Sendable, Equatable, Codable {
    public let photoId: String
    public let album: String
    /// The camera's local time, when the photo has one (`2024-06-14T09:30:00+02:00`).
    public let takenAt: String?

    public init(photoId: String, album: String, takenAt: String?) {
        self.photoId = photoId
        self.album = album
        self.takenAt = takenAt
    }

    private enum CodingKeys: String, CodingKey { case photoId, album, takenAt }

    /// `takenAt` as null when the photo has no date.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(photoId, forKey: .photoId)
        try container.encode(album, forKey: .album)
        try container.encode(takenAt, forKey: .takenAt)
    }
}

/// `quizSettings`, `saveQuizSettings`: the caller's defaults for a new quiz (the seed's `UserSettings`).
public typealias QuizSettingsView = QuizView.Settings
