/// A player at a quiz, with their running score.
public struct QuizPlayer: Sendable, Equatable, Codable {
    public let id: UserID
    public internal(set) var name: String
    public internal(set) var score: Int

    public init(id: UserID, name: String, score: Int = 0) {
        self.id = id
        self.name = name
        self.score = score
    }
}

/// Where a quiz is (the seed's `GamePhase`, with `waiting` before the start).
public enum QuizPhase: String, Sendable, Codable {
    /// Players join and upload photos; the host starts.
    case waiting
    /// The current photo's tiles appear one by one while the guess timer runs.
    case revealing
    /// The answer is shown with every guess; the host moves on.
    case revealed
    /// The session is over: standings.
    case complete
}

/// A player's guess at the current photo.
public struct QuizGuess: Sendable, Equatable, Codable {
    public let playerId: UserID
    public let coordinate: GeoCoordinate
    public let at: Instant
}

/// A guess as the reveal scores it.
public struct ScoredGuess: Sendable, Equatable, Codable {
    public let playerId: UserID
    public let coordinate: GeoCoordinate
    public let distanceKm: Double
    public let points: Int

    public init(playerId: UserID, coordinate: GeoCoordinate, distanceKm: Double, points: Int) {
        self.playerId = playerId
        self.coordinate = coordinate
        self.distanceKm = distanceKm
        self.points = points
    }
}
