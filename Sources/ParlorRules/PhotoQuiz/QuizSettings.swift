/// How a quiz is played: the seed's `UserSettings` (reveal speed, guess timer, session length, albums).
public struct QuizSettings: Sendable, Equatable, Codable {
    public var revealSpeed: RevealSpeed
    /// Seconds to guess each photo, from the moment it starts (`QuizLimits.timerDurations`).
    public var timerDuration: Int
    public var sessionLength: SessionLength
    /// The albums a session plays; empty plays every album.
    public var albums: [String]

    public init(
        revealSpeed: RevealSpeed = .medium, timerDuration: Int = QuizLimits.defaultTimerDuration,
        sessionLength: SessionLength = .ten, albums: [String] = []
    ) {
        self.revealSpeed = revealSpeed
        self.timerDuration = timerDuration
        self.sessionLength = sessionLength
        self.albums = albums
    }

    /// `base` with the fields a client gave (as text, so a bad one is refused by name) replaced.
    public static func reading(
        revealSpeed: String?, timerDuration: Int?, sessionLength: String?, albums: [String]?, over base: QuizSettings
    ) throws(PhotoQuizError) -> QuizSettings {
        var settings = base
        if let revealSpeed {
            guard let speed = RevealSpeed(rawValue: revealSpeed) else {
                throw .invalidInput(field: "revealSpeed", reason: "revealSpeed must be slow, medium or fast (got \"\(PhotoQuizError.clip(revealSpeed))\").")
            }
            settings.revealSpeed = speed
        }
        if let timerDuration {
            let range = QuizLimits.timerDurations
            guard range.contains(timerDuration) else {
                throw .invalidInput(
                    field: "timerDuration",
                    reason: "timerDuration must be between \(range.lowerBound) and \(range.upperBound) seconds (got \(timerDuration)).")
            }
            settings.timerDuration = timerDuration
        }
        if let sessionLength {
            guard let length = SessionLength(rawValue: sessionLength) else {
                throw .invalidInput(
                    field: "sessionLength",
                    reason: "sessionLength must be \"5\", \"10\", \"20\" or \"endless\" (got \"\(PhotoQuizError.clip(sessionLength))\").")
            }
            settings.sessionLength = length
        }
        if let albums {
            guard albums.count <= QuizLimits.maxAlbums else {
                throw .invalidInput(field: "albums", reason: "albums may name at most \(QuizLimits.maxAlbums) albums (got \(albums.count)).")
            }
            var names: [String] = []
            for album in albums {
                let name = try Self.albumName(album, field: "albums")
                if !names.contains(name) { names.append(name) }
            }
            settings.albums = names
        }
        return settings
    }

    /// An album's name, trimmed and checked like a display name.
    public static func albumName(_ raw: String, field: String) throws(PhotoQuizError) -> String {
        switch DisplayName.validate(raw, maxCharacters: QuizLimits.albumMaxCharacters) {
        case .success(let name): return name
        case .failure(let problem): throw .invalidInput(field: field, reason: DisplayName.sentence(for: problem, field: field))
        }
    }
}

/// How fast a photo's tiles appear: all 36, evenly, over 15, 10 or 5 seconds.
public enum RevealSpeed: String, Sendable, Codable, CaseIterable {
    case slow
    case medium
    case fast

    /// From the first tile to the last.
    public var milliseconds: Int64 {
        switch self {
        case .slow: 15_000
        case .medium: 10_000
        case .fast: 5_000
        }
    }
}

/// How many photos a session plays: 5, 10, 20, or all of them round and round until the host quits.
public enum SessionLength: String, Sendable, Codable, CaseIterable {
    case five = "5"
    case ten = "10"
    case twenty = "20"
    case endless

    /// Photos played; nil for endless.
    public var photoCount: Int? {
        switch self {
        case .five: 5
        case .ten: 10
        case .twenty: 20
        case .endless: nil
        }
    }
}
