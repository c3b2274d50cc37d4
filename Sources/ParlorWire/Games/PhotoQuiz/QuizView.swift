import ParlorRules

extension EventName {
    /// A photo quiz's view (`QuizView`), on every change; null data once the quiz is deleted.
    public static let quiz = EventName(rawValue: "quiz")
}

/// A photo quiz on the wire: the `quiz` event, and the reply of every operation that changes one. It is
/// the rules' own `QuizPublicView` (built by `PhotoQuiz.publicView`, so nothing unrevealed can reach it:
/// no location, place or date before a photo's reveal, no tile that has not appeared, nobody's guess
/// before the reveal) and holds no fields of its own but `serverTime`: `view.code`, `view.phase`,
/// `view.createdAt` and the rest read the rules' typed values. The names are the contract every client
/// reads alike (issue 16); absent values are sent as null. Times are ISO-8601 UTC with milliseconds, from
/// the server's clock (`serverTime` says what it read when it sent the view); a photo's `takenAt` is the
/// camera's local time (`PhotoDate.iso8601`); a guess is sent flat (`latitude`, `longitude`).
@dynamicMemberLookup
public struct QuizView: Sendable, Equatable, Codable {
    /// How the quiz is played, as the rules keep it (the wire form is the same).
    public typealias Settings = QuizSettings

    /// A player as the rules show them to everyone (the wire form is the same).
    public typealias Player = QuizPublicView.Player
    public typealias Album = QuizPublicView.Album
    /// The photo being played as the rules show it: tiles 0…35 (reading order on the 6 × 6 grid) that
    /// have appeared, their previews by tile number (written with the number as text), and its times
    /// (written ISO-8601).
    public typealias CurrentPhoto = QuizPublicView.CurrentPhoto
    /// A position as the rules keep it (the wire form is the same).
    public typealias Coordinate = GeoCoordinate
    /// The seed's `LocationReveal`, once the photo is revealed (`takenAt` written as the camera's local
    /// time, `2024-06-14T09:30:00+02:00`, or null).
    public typealias Answer = QuizPublicView.Answer
    /// A guess as the reveal scored it (written flat: `playerId`, `latitude`, `longitude`, `distanceKm`,
    /// `points`).
    public typealias Guess = ScoredGuess
    /// 1 for the highest score; ties share a rank (the wire form is the rules' own).
    public typealias Standing = QuizPublicView.Standing

    /// The quiz as the rules show it to everyone.
    public let quiz: QuizPublicView
    /// The server's clock when it sent this version; the server adds it, so a view built here has none.
    public var serverTime: Instant?

    public init(_ view: QuizPublicView, serverTime: Instant? = nil) {
        quiz = view
        self.serverTime = serverTime
    }

    public subscript<Value>(dynamicMember field: KeyPath<QuizPublicView, Value>) -> Value {
        quiz[keyPath: field]
    }

    private enum CodingKeys: String, CodingKey {
        case id, code, phase, hostId, settings, players, uploadCount, albums, photoCount, photoIndex, currentPhoto, answer, guesses
        case standings, createdAt, finishedAt, rematch, version, serverTime
    }

    private enum PhotoKeys: String, CodingKey {
        case photoId, uploadedBy, revealedTiles, previews, previewWidth, previewHeight, startedAt, revealEndsAt, guessDeadline
    }

    private enum AnswerKeys: String, CodingKey { case coordinate, city, country, displayDate, takenAt, isOffline }

    private enum GuessKeys: String, CodingKey { case playerId, latitude, longitude, distanceKm, points }

    /// Today's wire form (times ISO-8601 or milliseconds; absent and null alike read as none).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var currentPhoto: CurrentPhoto?
        if try container.contains(.currentPhoto) && !container.decodeNil(forKey: .currentPhoto) {
            let photo = try container.nestedContainer(keyedBy: PhotoKeys.self, forKey: .currentPhoto)
            currentPhoto = CurrentPhoto(
                photoId: try photo.decode(String.self, forKey: .photoId), uploadedBy: try photo.decode(UserID.self, forKey: .uploadedBy),
                revealedTiles: try photo.decode([Int].self, forKey: .revealedTiles),
                previews: try photo.decode([Int: String].self, forKey: .previews),
                previewWidth: try photo.decode(Int.self, forKey: .previewWidth), previewHeight: try photo.decode(Int.self, forKey: .previewHeight),
                startedAt: try photo.decode(Instant.self, forKey: .startedAt), revealEndsAt: try photo.decode(Instant.self, forKey: .revealEndsAt),
                guessDeadline: try photo.decode(Instant.self, forKey: .guessDeadline))
        }
        var answer: Answer?
        if try container.contains(.answer) && !container.decodeNil(forKey: .answer) {
            let reveal = try container.nestedContainer(keyedBy: AnswerKeys.self, forKey: .answer)
            var takenAt: PhotoDate?
            if let text = try reveal.decodeIfPresent(String.self, forKey: .takenAt) {
                guard let date = PhotoDate(iso8601: text) else {
                    throw DecodingError.dataCorruptedError(forKey: .takenAt, in: reveal, debugDescription: "\"\(text)\" is not a photo's date.")
                }
                takenAt = date
            }
            answer = Answer(
                coordinate: try reveal.decode(Coordinate.self, forKey: .coordinate), city: try reveal.decodeIfPresent(String.self, forKey: .city),
                country: try reveal.decodeIfPresent(String.self, forKey: .country),
                displayDate: try reveal.decode(String.self, forKey: .displayDate), takenAt: takenAt,
                isOffline: try reveal.decode(Bool.self, forKey: .isOffline))
        }
        var guesses: [Guess]?
        if try container.contains(.guesses) && !container.decodeNil(forKey: .guesses) {
            var list = try container.nestedUnkeyedContainer(forKey: .guesses)
            var read: [Guess] = []
            while !list.isAtEnd {
                let guess = try list.nestedContainer(keyedBy: GuessKeys.self)
                guard
                    let coordinate = Coordinate(
                        latitude: try guess.decode(Double.self, forKey: .latitude), longitude: try guess.decode(Double.self, forKey: .longitude))
                else {
                    throw DecodingError.dataCorruptedError(forKey: .latitude, in: guess, debugDescription: "A guess is off the globe.")
                }
                read.append(Guess(
                    playerId: try guess.decode(UserID.self, forKey: .playerId), coordinate: coordinate,
                    distanceKm: try guess.decode(Double.self, forKey: .distanceKm), points: try guess.decode(Int.self, forKey: .points)))
            }
            guesses = read
        }
        quiz = QuizPublicView(
            id: try container.decode(String.self, forKey: .id), code: try container.decode(QuizCode.self, forKey: .code),
            phase: try container.decode(QuizPhase.self, forKey: .phase), hostId: try container.decode(UserID.self, forKey: .hostId),
            settings: try container.decode(Settings.self, forKey: .settings), players: try container.decode([Player].self, forKey: .players),
            uploadCount: try container.decode(Int.self, forKey: .uploadCount), albums: try container.decode([Album].self, forKey: .albums),
            photoCount: try container.decode(Int.self, forKey: .photoCount), photoIndex: try container.decodeIfPresent(Int.self, forKey: .photoIndex),
            currentPhoto: currentPhoto, answer: answer, guesses: guesses,
            standings: try container.decodeIfPresent([Standing].self, forKey: .standings),
            createdAt: try container.decode(Instant.self, forKey: .createdAt), finishedAt: try container.decodeIfPresent(Instant.self, forKey: .finishedAt),
            rematch: try container.decodeIfPresent(QuizCode.self, forKey: .rematch), version: try container.decode(Int.self, forKey: .version))
        serverTime = try container.decodeIfPresent(Instant.self, forKey: .serverTime)
    }

    /// Every field, nulls included, so a client can tell "none" from "not sent".
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(quiz.id, forKey: .id)
        try container.encode(quiz.code, forKey: .code)
        try container.encode(quiz.phase, forKey: .phase)
        try container.encode(quiz.hostId, forKey: .hostId)
        try container.encode(quiz.settings, forKey: .settings)
        try container.encode(quiz.players, forKey: .players)
        try container.encode(quiz.uploadCount, forKey: .uploadCount)
        try container.encode(quiz.albums, forKey: .albums)
        try container.encode(quiz.photoCount, forKey: .photoCount)
        try container.encode(quiz.photoIndex, forKey: .photoIndex)
        if let current = quiz.currentPhoto {
            var photo = container.nestedContainer(keyedBy: PhotoKeys.self, forKey: .currentPhoto)
            try photo.encode(current.photoId, forKey: .photoId)
            try photo.encode(current.uploadedBy, forKey: .uploadedBy)
            try photo.encode(current.revealedTiles, forKey: .revealedTiles)
            try photo.encode(current.previews, forKey: .previews)
            try photo.encode(current.previewWidth, forKey: .previewWidth)
            try photo.encode(current.previewHeight, forKey: .previewHeight)
            try photo.encode(current.startedAt.iso8601, forKey: .startedAt)
            try photo.encode(current.revealEndsAt.iso8601, forKey: .revealEndsAt)
            try photo.encode(current.guessDeadline.iso8601, forKey: .guessDeadline)
        } else {
            try container.encodeNil(forKey: .currentPhoto)
        }
        if let answer = quiz.answer {
            var reveal = container.nestedContainer(keyedBy: AnswerKeys.self, forKey: .answer)
            try reveal.encode(answer.coordinate, forKey: .coordinate)
            try reveal.encode(answer.city, forKey: .city)
            try reveal.encode(answer.country, forKey: .country)
            try reveal.encode(answer.displayDate, forKey: .displayDate)
            try reveal.encode(answer.takenAt?.iso8601, forKey: .takenAt)
            try reveal.encode(answer.isOffline, forKey: .isOffline)
        } else {
            try container.encodeNil(forKey: .answer)
        }
        if let scored = quiz.guesses {
            var list = container.nestedUnkeyedContainer(forKey: .guesses)
            for scoredGuess in scored {
                var guess = list.nestedContainer(keyedBy: GuessKeys.self)
                try guess.encode(scoredGuess.playerId, forKey: .playerId)
                try guess.encode(scoredGuess.coordinate.latitude, forKey: .latitude)
                try guess.encode(scoredGuess.coordinate.longitude, forKey: .longitude)
                try guess.encode(scoredGuess.distanceKm, forKey: .distanceKm)
                try guess.encode(scoredGuess.points, forKey: .points)
            }
        } else {
            try container.encodeNil(forKey: .guesses)
        }
        try container.encode(quiz.standings, forKey: .standings)
        try container.encode(quiz.createdAt.iso8601, forKey: .createdAt)
        try container.encode(quiz.finishedAt?.iso8601, forKey: .finishedAt)
        try container.encode(quiz.rematch, forKey: .rematch)
        try container.encode(quiz.version, forKey: .version)
        try container.encodeIfPresent(serverTime?.iso8601, forKey: .serverTime)
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
