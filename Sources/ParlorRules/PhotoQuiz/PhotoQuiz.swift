/// A photo quiz: players, the photos they uploaded, and a session played on the server's clock — each
/// photo's tiles appearing one by one while the guess timer runs, then the answer and the points.
///
/// A pure value; the server's game actor is its only writer. `version` starts at 1 and rises by exactly
/// one for every change. Every check runs before anything changes, so a thrown error leaves the quiz
/// untouched. The answer to a photo (its location, place and date) is in `photos`, which no view shows
/// before that photo is revealed (`PhotoQuiz+View`).
///
/// Decisions the seed leaves open:
/// - Anyone may join at any time, also during a session (they guess from the current photo on).
/// - Only photos uploaded before the start play; albums are the names uploads gave.
/// - An endless session plays every photo, then shuffles them again and goes on until the host quits.
/// - The host leaving hands the quiz to the next player in seat order; the last player leaving deletes it.
public struct PhotoQuiz: Sendable, Equatable, Codable {
    /// Opaque and unique among every quiz ever played (codes are reused).
    public let id: String
    public let code: QuizCode
    public let createdAt: Instant
    /// Seeds every shuffle (the photo order, each photo's tile order), so the quiz plays the same after a
    /// restart and a test can predict it.
    public let seed: UInt64
    public internal(set) var hostId: UserID
    public internal(set) var settings: QuizSettings
    /// Seat order.
    public internal(set) var players: [QuizPlayer]
    /// Upload order.
    public internal(set) var photos: [QuizPhoto]
    public internal(set) var phase: QuizPhase
    /// Indices into `photos` in the order this pass of the session plays them.
    public internal(set) var playlist: [Int]
    /// How many times an endless session has gone through its photos (0 on the first pass).
    public internal(set) var pass: Int
    /// The photo being played or just revealed; nil while waiting and once complete.
    public internal(set) var round: QuizRound?
    public internal(set) var finishedAt: Instant?
    /// Where the players went for a rematch, once the host started one (`PhotoQuiz+Rematch`).
    public internal(set) var rematch: QuizCode?
    public internal(set) var version: Int

    /// A new quiz with `host` in the first seat.
    public static func create(
        id: String, code: QuizCode, seed: UInt64, settings: QuizSettings, host: UserID, playerName: String, at now: Instant
    ) throws(PhotoQuizError) -> PhotoQuiz {
        let name = try validName(playerName)
        return PhotoQuiz(
            id: id, code: code, createdAt: now, seed: seed, hostId: host, settings: settings,
            players: [QuizPlayer(id: host, name: name)], photos: [], phase: .waiting, playlist: [], pass: 0, round: nil,
            finishedAt: nil, rematch: nil, version: 1)
    }

    public func player(_ id: UserID) -> QuizPlayer? { players.first { $0.id == id } }

    public func isMember(_ id: UserID) -> Bool { players.contains { $0.id == id } }

    public func photo(id: String) -> QuizPhoto? { photos.first { $0.id == id } }

    /// The photos the session plays: those in the chosen albums, or all.
    var pool: [Int] {
        photos.indices.filter { settings.albums.isEmpty || settings.albums.contains(photos[$0].album) }
    }

    /// Photos the session plays in all (one pass, for an endless session).
    public var sessionPhotoCount: Int {
        let available = phase == .waiting ? pool.count : playlist.count
        return settings.sessionLength.photoCount.map { min($0, available) } ?? available
    }

    mutating func join(_ user: UserID, playerName: String) throws(PhotoQuizError) -> [PhotoQuizEvent] {
        let name = try Self.validName(playerName)
        if let index = players.firstIndex(where: { $0.id == user }) {
            if players[index].name == name { return [] }
            players[index].name = name
            version += 1
            return [.renamed(user)]
        }
        guard phase != .complete else { throw .invalidState(reason: "The quiz is over; start a new one.") }
        guard players.count < QuizLimits.maxPlayers else { throw .quizFull(capacity: QuizLimits.maxPlayers) }
        players.append(QuizPlayer(id: user, name: name))
        version += 1
        return [.joined(user)]
    }

    /// Removes the player (and their guess at the current photo); the host's seat passes on.
    mutating func leave(_ user: UserID) throws(PhotoQuizError) -> [PhotoQuizEvent] {
        guard let index = players.firstIndex(where: { $0.id == user }) else { throw .notMember }
        players.remove(at: index)
        round?.guesses.removeAll { $0.playerId == user }
        version += 1
        guard let heir = players.first else { return [.left(user), .deleted] }
        var events: [PhotoQuizEvent] = [.left(user)]
        if hostId == user {
            hostId = heir.id
            events.append(.hostChanged(heir.id))
        }
        return events
    }

    static func validName(_ raw: String) throws(PhotoQuizError) -> String {
        switch DisplayName.validate(raw, maxCharacters: QuizLimits.nameMaxCharacters) {
        case .success(let name): return name
        case .failure(let problem): throw .invalidInput(field: "playerName", reason: DisplayName.sentence(for: problem, field: "playerName"))
        }
    }

    func requireHost(_ user: UserID, to action: String) throws(PhotoQuizError) {
        guard user == hostId else { throw isMember(user) ? .notHost(action: action) : .notMember }
    }
}

/// What an applied action changed, for logs and tests.
public enum PhotoQuizEvent: Sendable, Equatable {
    case joined(UserID)
    case renamed(UserID)
    case left(UserID)
    /// The host took this player's seat away.
    case removed(UserID)
    case hostChanged(UserID)
    case deleted
    case photoAdded(String)
    case settingsChanged
    case started
    /// Round `round` started: its first tile is out and its timers run.
    case photoStarted(round: Int)
    /// `count` tiles of the current photo are out.
    case tilesRevealed(count: Int)
    case guessed(UserID)
    case photoRevealed(round: Int)
    case completed
    /// The host started a rematch of the finished quiz: its code.
    case rematchStarted(QuizCode)
}
