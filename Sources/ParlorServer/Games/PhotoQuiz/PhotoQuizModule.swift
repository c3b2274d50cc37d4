import ParlorRules
import ParlorWire

/// Photo quizzes (seed `photo-quiz-model.md`): players upload geotagged photos, the server reveals each
/// tile by tile on its clock while the guess timer runs, scores guesses by distance and names the place
/// from GeoNames' places, offline. Each operation acts as the signed-in caller.
struct PhotoQuizModule: GameModule {
    func register(in kernel: Kernel) throws -> GameRegistration {
        let configuration = kernel.configuration.photoQuiz
        let store = try kernel.store.backend.quizPhotoStorage.quizPhotos(kernel.configuration)
        let previews = QuizPreviewCache(capacity: configuration.previewCacheSize)
        let places = PlacesLoader(path: configuration.places, logger: kernel.logger)
        let processor = QuizPhotoProcessor(limits: configuration.photo, places: places, maxInFlight: configuration.maxUploadsInFlight)
        let media = QuizMedia(store: store, previews: previews, processor: processor, logger: kernel.logger)
        let game = PhotoQuizGame(codeSpace: configuration.codeSpace, maxGames: configuration.maxQuizzes, previews: previews)
        let host = GameHost(game, kernel: kernel)
        let operations = PhotoQuizOperations(host: host, media: media, defaults: QuizSettingsDefaults(store: kernel.store))
        let photos = QuizPhotoRoutes(host: host, media: media, maxUploadBytes: configuration.maxUploadBytes)
        let placeRoutes = PlaceRoutes(places: PlacesForClients(loader: places))
        let moves = host.moves(PhotoQuizAction.moves)
        return GameRegistration(
            game: PhotoQuizHosting(host: host, media: media), operations: operations.entries + moves.entries,
            routes: operations.routes + moves.routes + photos.routes + placeRoutes.routes)
    }
}

/// The quizzes as the kernel hosts them: their `GameHost`, and their photo files kept in step with it —
/// the files of a quiz that is gone (expired, or deleted while its files could not be removed, or
/// stopped between saving a photo and adding it) are swept at start-up and after every expiry sweep.
struct PhotoQuizHosting: HostedGame {
    /// Its records replay through its host.
    var recordReplaying: (any RecordReplaying)? { host }
    let host: GameHost<PhotoQuizGame>
    let media: QuizMedia

    var kind: GameKind { host.kind }
    var count: Int { host.count }
    var countsByStage: [GameStage: Int] { host.countsByStage }
    var subscriberCount: Int { host.subscriberCount }

    func playedGames(of user: UserID, before: Instant?, limit: Int) async throws(WireError) -> [PlayedGame] {
        try await host.playedGames(of: user, before: before, limit: limit)
    }

    func restore() async throws {
        try await host.restore()
        await sweep()
    }

    func expireAbandoned(_ cutoffs: ExpiryCutoffs, presence: Presence) async -> Int {
        let expired = await host.expireAbandoned(cutoffs, presence: presence)
        if expired > 0 { await sweep() }
        return expired
    }

    func adminGames(limit: Int, presence: Presence) async -> [AdminViews.Game] {
        await host.adminGames(limit: limit, presence: presence)
    }

    func adminGame(code: String, presence: Presence) async throws(WireError) -> (AdminViews.Game, EncodedJSON) {
        try await host.adminGame(code: code, presence: presence)
    }

    /// A closed quiz's photos go with it.
    func close(code: String, reason: String) async throws(WireError) {
        try await host.close(code: code, reason: reason)
        await sweep()
    }

    func accessible(code: String) async throws(WireError) -> (any AccessibleGame)? { try await host.accessible(code: code) }

    func changedElsewhere(_ change: GameChange) { host.changedElsewhere(change) }

    func homeChanged(_ change: HomeChange) async { await host.homeChanged(change) }

    func reviewHomes() async -> Set<Int> { await host.reviewHomes() }

    func evictIdleCopies(idle: Duration) async -> Int { await host.evictIdleCopies(idle: idle) }

    var servedCounts: ServedCounts { host.servedCounts }

    func refreshWatched() async { await host.refreshWatched() }

    func takeOverdue(id: String) async { await host.takeOverdue(id: id) }

    private func sweep() async {
        let live: Set<String>
        if host.store.sharedByNodes {
            // Other nodes serve quizzes this one does not hold: a quiz is gone only when the database
            // no longer has it.
            guard let stored = try? await host.store.loadGames(host.kind) else { return }
            live = Set(stored.map(\.id))
        } else {
            live = Set(host.directory.all.map(\.id))
        }
        let removed = await media.sweep(keeping: live)
        if removed > 0 { host.logger.info("Photos of gone quizzes removed", metadata: ["quizzes": "\(removed)"]) }
    }
}
