import Logging
import ParlorRules
import ParlorWire

/// Everything of a quiz that is not its state: the photo files, the previews the rules read, and the
/// processing of uploads.
struct QuizMedia: Sendable {
    let store: any QuizPhotoStore
    let previews: QuizPreviewCache
    let processor: QuizPhotoProcessor
    let logger: Logger

    /// Reads into the cache the previews of every photo `quiz` may play next, before an action that
    /// starts one (the rules read them synchronously).
    func warm(_ quiz: PhotoQuiz) async {
        await previews.warm(quiz: quiz.id, photos: quiz.photos.map(\.id), from: store)
    }

    /// A quiz was deleted: its files and cached previews go. A failure is logged; the next sweep
    /// (`sweep(keeping:)`) tries again.
    func removeQuiz(_ id: String, photos: [String]) async {
        previews.forget(photos)
        do {
            try await store.removeQuiz(id)
        } catch {
            logger.warning("Photos of a deleted quiz not removed", metadata: ["quiz": "\(id)", "cause": "\(error.reason)"])
        }
    }

    /// Removes the files of every quiz not in `live`: quizzes that expired, or were deleted while their
    /// files could not be removed, or whose server stopped between saving a photo and adding it.
    func sweep(keeping live: Set<String>) async -> Int {
        guard let stored = try? await store.quizzes() else { return 0 }
        var removed = 0
        for quiz in stored where !live.contains(quiz) {
            do {
                try await store.removeQuiz(quiz)
                removed += 1
            } catch {
                logger.warning("Photos of a gone quiz not removed", metadata: ["quiz": "\(quiz)", "cause": "\(error.reason)"])
            }
        }
        return removed
    }
}

/// A user's saved quiz settings (the seed's `UserSettings`): the defaults of the next quiz they create.
struct QuizSettingsDefaults: Sendable {
    let store: any ParlorStore
    static let name = "photo-quiz"

    /// The user's saved settings, or the seed's defaults when they never saved any (or they cannot be
    /// read: settings are a convenience, never a reason to refuse a game).
    func load(_ user: UserID) async -> QuizSettings {
        guard let json = try? await store.userSettings(user, name: Self.name),
            let settings = try? StoredJSON.decode(QuizSettings.self, from: json, what: "quiz settings of \(user)", location: "user_settings")
        else { return QuizSettings() }
        // Saved settings are checked again as they are read, as a client's would be.
        return (try? QuizSettings.reading(
            revealSpeed: settings.revealSpeed.rawValue, timerDuration: settings.timerDuration,
            sessionLength: settings.sessionLength.rawValue, albums: settings.albums, over: QuizSettings())) ?? QuizSettings()
    }

    func save(_ settings: QuizSettings, for user: UserID) async throws(WireError) {
        do {
            try await store.saveUserSettings(user, name: Self.name, json: try StoredJSON.encode(settings, what: "quiz settings"))
        } catch {
            throw WireError.internalError("The settings could not be saved; try again.")
        }
    }
}
