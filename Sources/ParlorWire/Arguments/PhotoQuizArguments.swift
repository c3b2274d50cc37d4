import ParlorRules

// Arguments of the photo quiz operations (seed `photo-quiz-model.md`, issue 16). Codes and settings
// arrive as text so the rules can refuse a bad one by name (INVALID_INPUT naming the field); ranges are
// the rules' to check. Photos are uploaded over HTTP (`POST /quizzes/{code}/photos`), not here.

/// The settings a client may give (`createQuiz`, `updateQuizSettings`, `saveQuizSettings`); each absent
/// one keeps its current value (the user's saved default, for a new quiz).
public struct QuizSettingsFields: Codable, Sendable, Equatable {
    /// `slow`, `medium` or `fast`.
    public var revealSpeed: String?
    /// Seconds, 10…120.
    public var timerDuration: Int?
    /// `"5"`, `"10"`, `"20"` or `"endless"`.
    public var sessionLength: String?
    /// Album names; empty plays every album.
    public var albums: [String]?

    public init(revealSpeed: String?, timerDuration: Int? = nil, sessionLength: String? = nil, albums: [String]? = nil) {
        self.revealSpeed = revealSpeed
        self.timerDuration = timerDuration
        self.sessionLength = sessionLength
        self.albums = albums
    }

    /// `base` with these fields replaced.
    public func applied(to base: QuizSettings) throws(PhotoQuizError) -> QuizSettings {
        try QuizSettings.reading(
            revealSpeed: revealSpeed, timerDuration: timerDuration, sessionLength: sessionLength, albums: albums, over: base)
    }
}

/// `createQuiz {playerName, revealSpeed?, timerDuration?, sessionLength?, albums?}`: the settings sit
/// beside the name, as the seed's fields.
public struct CreateQuizArguments: OperationArguments {
    public var playerName: String
    public var settings: QuizSettingsFields

    public init(playerName: String, settings: QuizSettingsFields = QuizSettingsFields()) {
        self.playerName = playerName
        self.settings = settings
    }

    private enum CodingKeys: String, CodingKey { case playerName }

    public init(from decoder: any Decoder) throws {
        playerName = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .playerName)
        settings = try QuizSettingsFields(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(playerName, forKey: .playerName)
        try settings.encode(to: encoder)
    }
}

/// `joinQuiz {code, playerName}`.
public struct JoinQuizArguments: OperationArguments {
    public var code: String
    public var playerName: String

    public init(code: String, playerName: String) {
        self.code = code
        self.playerName = playerName
    }
}

/// `leaveQuiz`, `startQuiz`, `reveal`, `nextPhoto`, `quitQuiz`, `observeQuiz`, `getQuiz`: `{code}`.
public struct QuizCodeArguments: OperationArguments {
    public var code: String

    public init(code: String) { self.code = code }
}

/// `updateQuizSettings {code, revealSpeed?, timerDuration?, sessionLength?, albums?}` (the host, before
/// the start).
public struct UpdateQuizSettingsArguments: OperationArguments {
    public var code: String
    public var settings: QuizSettingsFields

    public init(code: String, settings: QuizSettingsFields) {
        self.code = code
        self.settings = settings
    }

    private enum CodingKeys: String, CodingKey { case code }

    public init(from decoder: any Decoder) throws {
        code = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .code)
        settings = try QuizSettingsFields(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try settings.encode(to: encoder)
    }
}

/// `saveQuizSettings {revealSpeed?, timerDuration?, sessionLength?, albums?}`: the caller's defaults.
extension QuizSettingsFields: OperationArguments, DefaultArguments {
    public init() { self.init(revealSpeed: nil) }
}

/// `submitGuess {code, latitude, longitude}`.
public struct SubmitGuessArguments: OperationArguments {
    public var code: String
    public var latitude: Double
    public var longitude: Double

    public init(code: String, latitude: Double, longitude: Double) {
        self.code = code
        self.latitude = latitude
        self.longitude = longitude
    }
}

// MARK: Operations

extension OperationName {
    public static let createQuiz = OperationName("createQuiz")
    public static let joinQuiz = OperationName("joinQuiz")
    public static let leaveQuiz = OperationName("leaveQuiz")
    public static let updateQuizSettings = OperationName("updateQuizSettings")
    public static let startQuiz = OperationName("startQuiz")
    public static let submitGuess = OperationName("submitGuess")
    public static let reveal = OperationName("reveal")
    public static let nextPhoto = OperationName("nextPhoto")
    public static let quitQuiz = OperationName("quitQuiz")
    public static let observeQuiz = OperationName("observeQuiz")
    public static let getQuiz = OperationName("getQuiz")
    public static let quizSettings = OperationName("quizSettings")
    public static let saveQuizSettings = OperationName("saveQuizSettings")
}

extension Operation {
    public static func createQuiz(_ arguments: CreateQuizArguments) -> Operation { Operation(.createQuiz, arguments) }
    public static func joinQuiz(_ arguments: JoinQuizArguments) -> Operation { Operation(.joinQuiz, arguments) }
    public static func leaveQuiz(_ arguments: QuizCodeArguments) -> Operation { Operation(.leaveQuiz, arguments) }
    public static func updateQuizSettings(_ arguments: UpdateQuizSettingsArguments) -> Operation { Operation(.updateQuizSettings, arguments) }
    public static func startQuiz(_ arguments: QuizCodeArguments) -> Operation { Operation(.startQuiz, arguments) }
    public static func submitGuess(_ arguments: SubmitGuessArguments) -> Operation { Operation(.submitGuess, arguments) }
    public static func reveal(_ arguments: QuizCodeArguments) -> Operation { Operation(.reveal, arguments) }
    public static func nextPhoto(_ arguments: QuizCodeArguments) -> Operation { Operation(.nextPhoto, arguments) }
    public static func quitQuiz(_ arguments: QuizCodeArguments) -> Operation { Operation(.quitQuiz, arguments) }
    public static func observeQuiz(_ arguments: QuizCodeArguments) -> Operation { Operation(.observeQuiz, arguments) }
    public static func getQuiz(_ arguments: QuizCodeArguments) -> Operation { Operation(.getQuiz, arguments) }
    public static func quizSettings() -> Operation { Operation(.quizSettings, EmptyArguments()) }
    public static func saveQuizSettings(_ arguments: QuizSettingsFields) -> Operation { Operation(.saveQuizSettings, arguments) }
}

extension OperationSpec {
    /// The photo quiz operations.
    static let photoQuiz: [OperationSpec] = [
        OperationSpec(.createQuiz, CreateQuizArguments.self),
        OperationSpec(.joinQuiz, JoinQuizArguments.self),
        OperationSpec(.leaveQuiz, QuizCodeArguments.self),
        OperationSpec(.updateQuizSettings, UpdateQuizSettingsArguments.self),
        OperationSpec(.startQuiz, QuizCodeArguments.self),
        OperationSpec(.submitGuess, SubmitGuessArguments.self),
        OperationSpec(.reveal, QuizCodeArguments.self),
        OperationSpec(.nextPhoto, QuizCodeArguments.self),
        OperationSpec(.quitQuiz, QuizCodeArguments.self),
        OperationSpec(.observeQuiz, QuizCodeArguments.self),
        OperationSpec(.getQuiz, QuizCodeArguments.self),
        OperationSpec(.quizSettings, EmptyArguments.self),
        OperationSpec(.saveQuizSettings, QuizSettingsFields.self),
    ]
}
