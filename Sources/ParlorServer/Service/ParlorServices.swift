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

    /// Opens the services over `store`: reads the token secret and brings every stored room back into an
    /// actor of its own.
    init(configuration: ServerConfiguration, store: any ParlorStore, clock: any ParlorClock, logger: Logger) async throws {
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
    }

    /// Refreshes the gauges that are cheaper to read at scrape time than to track.
    func refreshGauges() {
        let rooms = directory.allRooms
        metrics.rooms.record(rooms.count)
        metrics.subscriptions.record(rooms.reduce(0) { $0 + $1.feed.subscriberCount })
    }

    /// Deletes rooms nobody is connected to that have not changed for the configured time.
    func expireAbandonedRooms() async -> Int {
        let cutoff = Instant(
            millisecondsSinceEpoch: clock.now.millisecondsSinceEpoch - Int64(configuration.roomExpiry.nanoseconds / 1_000_000))
        var expired = 0
        for room in directory.allRooms where await room.expireIfAbandoned(unchangedSince: cutoff, presence: presence) {
            expired += 1
        }
        if expired > 0 { logger.info("Expired abandoned rooms", metadata: ["count": "\(expired)"]) }
        return expired
    }
}
