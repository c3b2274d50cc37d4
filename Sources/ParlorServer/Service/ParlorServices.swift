import Logging
import ParlorRules
import ParlorWire

/// Everything a session or an HTTP route needs, built once at start-up.
final class ParlorServices: Sendable {
    let configuration: ServerConfiguration
    let logger: Logger
    let clock: any ParlorClock
    let store: any ParlorStore
    let tokens: SessionTokens
    let presence = Presence()
    let metrics = ServerMetrics()
    let directory: RoomDirectory
    let rooms: RoomService
    let lobbyDirectory: LobbyDirectory
    let lobbies: LobbyService
    let lobbyTimers: LobbyTimers
    let catalog: CatalogService

    /// Opens the services over `store`: reads the token secret, loads the word list and the catalog, and
    /// brings every stored room and lobby back into an actor of its own.
    init(configuration: ServerConfiguration, store: any ParlorStore, clock: any ParlorClock, logger: Logger) async throws {
        // Settings and the word list first: a server that cannot play word games should not start at all.
        let wordGames = configuration.wordGames
        try wordGames.validate()
        let wordList = try WordListFile.load(wordGames.wordList)
        self.configuration = configuration
        self.logger = logger
        self.clock = clock
        self.store = store
        tokens = SessionTokens(secret: try await store.serverSecret())
        let directory = RoomDirectory(maxRooms: configuration.limits.maxRooms)
        self.directory = directory
        let environment = RoomEnvironment(store: store, clock: clock, logger: logger) { [directory] code in
            directory.remove(code)
        }
        rooms = RoomService(directory: directory, environment: environment)
        for room in try await store.loadRooms() {
            directory.install(try RoomActor(room: room, environment: environment))
        }
        logger.info("Rooms restored", metadata: ["count": "\(directory.count)"])

        catalog = try await CatalogService.open(store: store, logger: logger)
        let lobbyDirectory = LobbyDirectory(codeSpace: wordGames.lobbyCodes, maxLobbies: wordGames.maxLobbies)
        self.lobbyDirectory = lobbyDirectory
        lobbyTimers = LobbyTimers(clock: clock)
        let lobbyEnvironment = LobbyEnvironment(
            store: store, clock: clock, logger: logger, wordList: wordList, catalog: catalog, timers: lobbyTimers
        ) { [lobbyDirectory] lobby in
            lobbyDirectory.remove(lobby)
        }
        lobbies = LobbyService(directory: lobbyDirectory, environment: lobbyEnvironment, capacity: wordGames.lobbyCapacity)
        for lobby in try await store.loadLobbies() {
            lobbyDirectory.install(try LobbyActor(lobby: lobby, environment: lobbyEnvironment))
        }
        logger.info("Lobbies restored", metadata: ["count": "\(lobbyDirectory.count)"])
    }

    /// Runs the word rounds' timers and the catalog poll until the calling task is cancelled (the server
    /// cancels it as it stops, which cancels every pending timer).
    func runWordGames() async {
        let lobbies = lobbies
        await withDiscardingTaskGroup { group in
            group.addTask { await self.lobbyTimers.run { await lobbies.roundDue($0) } }
            if let interval = configuration.wordGames.catalogPollInterval {
                group.addTask { await self.catalog.poll(every: .nanoseconds(interval.nanoseconds)) }
            }
        }
    }

    /// Refreshes the gauges that are cheaper to read at scrape time than to track.
    func refreshGauges() {
        let rooms = directory.allRooms
        let lobbies = lobbyDirectory.allLobbies
        metrics.rooms.record(rooms.count)
        metrics.lobbies.record(lobbies.count)
        metrics.subscriptions.record(
            rooms.reduce(0) { $0 + $1.feed.subscriberCount } + lobbies.reduce(0) { $0 + $1.feed.subscriberCount }
                + catalog.feed.subscriberCount)
    }

    /// Deletes rooms nobody is connected to that have not changed for the configured time.
    func expireAbandonedRooms() async -> Int {
        await expireAbandoned(directory.allRooms, "rooms") { room, cutoff, presence in
            await room.expireIfAbandoned(unchangedSince: cutoff, presence: presence)
        }
    }

    /// Deletes lobbies between rounds that nobody is connected to and that have not changed for the
    /// room expiry time.
    func expireAbandonedLobbies() async -> Int {
        await expireAbandoned(lobbyDirectory.allLobbies, "lobbies") { lobby, cutoff, presence in
            await lobby.expireIfAbandoned(unchangedSince: cutoff, presence: presence)
        }
    }

    /// Offers each room or lobby actor in `owners` expiry for "unchanged since now − the expiry time"; counts and logs the
    /// ones that went.
    private func expireAbandoned<Owner>(
        _ owners: [Owner], _ what: String,
        _ expire: (Owner, Instant, Presence) async -> Bool
    ) async -> Int {
        let cutoff = Instant(
            millisecondsSinceEpoch: clock.now.millisecondsSinceEpoch - Int64(configuration.roomExpiry.nanoseconds / 1_000_000))
        var expired = 0
        for owner in owners where await expire(owner, cutoff, presence) {
            expired += 1
        }
        if expired > 0 { logger.info("Expired abandoned \(what)", metadata: ["count": "\(expired)"]) }
        return expired
    }
}
