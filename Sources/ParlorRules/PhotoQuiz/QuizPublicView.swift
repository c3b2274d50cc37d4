/// What anyone watching a quiz may see. Built only from what has been shown: the current photo's
/// appeared tiles (and their previews), who has guessed but not where, and — only once the photo is
/// revealed — the answer and every guess with its distance and points. A photo's location, place and
/// date are in no view before its reveal.
public struct QuizPublicView: Sendable, Equatable {
    public struct Player: Sendable, Equatable, Codable {
        public let id: UserID
        public let name: String
        public let score: Int
        /// Guessed the current photo (false between photos).
        public let hasGuessed: Bool
        /// Photos this player uploaded.
        public let photoCount: Int
    }

    public struct Album: Sendable, Equatable, Codable {
        public let name: String
        public let photoCount: Int
    }

    public struct CurrentPhoto: Sendable, Equatable {
        public let photoId: String
        public let uploadedBy: UserID
        /// The tiles that have appeared (0…35, reading order), in the order they did.
        public let revealedTiles: [Int]
        /// The appeared tiles' previews by tile number (base64 RGB, `previewWidth` × `previewHeight`).
        public let previews: [Int: String]
        public let previewWidth: Int
        public let previewHeight: Int
        public let startedAt: Instant
        public let revealEndsAt: Instant
        public let guessDeadline: Instant

        public init(
            photoId: String, uploadedBy: UserID, revealedTiles: [Int], previews: [Int: String], previewWidth: Int, previewHeight: Int,
            startedAt: Instant, revealEndsAt: Instant, guessDeadline: Instant
        ) {
            self.photoId = photoId
            self.uploadedBy = uploadedBy
            self.revealedTiles = revealedTiles
            self.previews = previews
            self.previewWidth = previewWidth
            self.previewHeight = previewHeight
            self.startedAt = startedAt
            self.revealEndsAt = revealEndsAt
            self.guessDeadline = guessDeadline
        }
    }

    /// The seed's `LocationReveal`.
    public struct Answer: Sendable, Equatable {
        public let coordinate: GeoCoordinate
        public let city: String?
        public let country: String?
        public let displayDate: String
        /// The camera's date and time, when the photo had one.
        public let takenAt: PhotoDate?
        /// No place could be named (no places data, or nothing near): show the coordinates only.
        public let isOffline: Bool

        public init(coordinate: GeoCoordinate, city: String?, country: String?, displayDate: String, takenAt: PhotoDate?, isOffline: Bool) {
            self.coordinate = coordinate
            self.city = city
            self.country = country
            self.displayDate = displayDate
            self.takenAt = takenAt
            self.isOffline = isOffline
        }
    }

    public struct Standing: Sendable, Equatable, Codable {
        public let rank: Int
        public let playerId: UserID
        public let name: String
        public let score: Int
    }

    public let id: String
    public let code: QuizCode
    public let phase: QuizPhase
    public let hostId: UserID
    public let settings: QuizSettings
    public let players: [Player]
    /// Photos uploaded so far.
    public let uploadCount: Int
    public let albums: [Album]
    /// Photos the session plays (per pass, for an endless session).
    public let photoCount: Int
    /// The current photo's place in the session, from 0; nil before the start and once complete.
    public let photoIndex: Int?
    public let currentPhoto: CurrentPhoto?
    public let answer: Answer?
    /// Every guess at the current photo, best first; nil until it is revealed.
    public let guesses: [ScoredGuess]?
    /// Once complete: every player by score, ties sharing a rank.
    public let standings: [Standing]?
    public let createdAt: Instant
    public let finishedAt: Instant?
    /// The rematch's code, once the host started one: everyone following this quiz goes there.
    public let rematch: QuizCode?
    public let version: Int

    public init(
        id: String, code: QuizCode, phase: QuizPhase, hostId: UserID, settings: QuizSettings, players: [Player], uploadCount: Int,
        albums: [Album], photoCount: Int, photoIndex: Int?, currentPhoto: CurrentPhoto?, answer: Answer?, guesses: [ScoredGuess]?,
        standings: [Standing]?, createdAt: Instant, finishedAt: Instant?, rematch: QuizCode?, version: Int
    ) {
        self.id = id
        self.code = code
        self.phase = phase
        self.hostId = hostId
        self.settings = settings
        self.players = players
        self.uploadCount = uploadCount
        self.albums = albums
        self.photoCount = photoCount
        self.photoIndex = photoIndex
        self.currentPhoto = currentPhoto
        self.answer = answer
        self.guesses = guesses
        self.standings = standings
        self.createdAt = createdAt
        self.finishedAt = finishedAt
        self.rematch = rematch
        self.version = version
    }
}

extension PhotoQuiz {
    public var publicView: QuizPublicView {
        let round = round
        let revealed = phase == .revealed ? round : nil
        return QuizPublicView(
            id: id, code: code, phase: phase, hostId: hostId, settings: settings,
            players: players.map { player in
                QuizPublicView.Player(
                    id: player.id, name: player.name, score: player.score,
                    hasGuessed: round?.guesses.contains { $0.playerId == player.id } ?? false,
                    photoCount: photos.reduce(0) { $0 + ($1.uploadedBy == player.id ? 1 : 0) })
            },
            uploadCount: photos.count, albums: albums.map { QuizPublicView.Album(name: $0.name, photoCount: $0.photoCount) },
            photoCount: sessionPhotoCount, photoIndex: round.map { $0.number - 1 },
            currentPhoto: round.map(currentPhoto), answer: revealed.map { answer(to: photos[$0.photo]) },
            guesses: revealed?.scored, standings: phase == .complete ? standings : nil, createdAt: createdAt,
            finishedAt: finishedAt, rematch: rematch, version: version)
    }

    private func currentPhoto(_ round: QuizRound) -> QuizPublicView.CurrentPhoto {
        let photo = photos[round.photo]
        let tiles = Array(round.revealedTiles)
        var previews: [Int: String] = [:]
        if let all = round.previews {
            for tile in tiles where all.tiles.indices.contains(tile) { previews[tile] = all.tiles[tile] }
        }
        return QuizPublicView.CurrentPhoto(
            photoId: photo.id, uploadedBy: photo.uploadedBy, revealedTiles: tiles, previews: previews,
            previewWidth: round.previews?.width ?? 0, previewHeight: round.previews?.height ?? 0, startedAt: round.startedAt,
            revealEndsAt: round.revealEndsAt, guessDeadline: round.guessDeadline)
    }

    private func answer(to photo: QuizPhoto) -> QuizPublicView.Answer {
        QuizPublicView.Answer(
            coordinate: photo.location, city: photo.place?.city, country: photo.place?.country,
            displayDate: photo.takenAt?.displayDate ?? PhotoDate.unknown, takenAt: photo.takenAt, isOffline: photo.place == nil)
    }

    /// Every player by score (highest first; ties share a rank and keep seat order).
    public var standings: [QuizPublicView.Standing] {
        let ordered = players.enumerated().sorted { ($0.element.score, -$0.offset) > ($1.element.score, -$1.offset) }.map(\.element)
        var standings: [QuizPublicView.Standing] = []
        for (index, player) in ordered.enumerated() {
            let rank = index > 0 && ordered[index - 1].score == player.score ? standings[index - 1].rank : index + 1
            standings.append(QuizPublicView.Standing(rank: rank, playerId: player.id, name: player.name, score: player.score))
        }
        return standings
    }

    // MARK: Pixels

    /// Refuses tile `tile` of photo `photoId` unless it may be seen now: it has appeared in the current
    /// round, or its photo has been revealed.
    public func checkTileVisible(photoId: String, tile: Int) throws(PhotoQuizError) {
        guard let photo = photo(id: photoId) else { throw .photoNotFound(id: photoId) }
        guard (0..<QuizLimits.tileCount).contains(tile) else {
            throw .invalidInput(field: "tile", reason: "tile must be between 0 and \(QuizLimits.tileCount - 1) (got \(tile)).")
        }
        if photo.isRevealed { return }
        guard let round, photos[round.photo].id == photoId, round.revealedTiles.contains(tile) else { throw .tileHidden(tile: tile) }
    }

    /// Refuses the whole photo `photoId` unless it has been revealed.
    public func checkPhotoVisible(photoId: String) throws(PhotoQuizError) {
        guard let photo = photo(id: photoId) else { throw .photoNotFound(id: photoId) }
        guard photo.isRevealed else { throw .photoHidden }
    }
}
