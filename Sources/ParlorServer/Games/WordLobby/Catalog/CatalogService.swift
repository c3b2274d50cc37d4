import Logging
import NIOConcurrencyHelpers
import ParlorRules
import ParlorWire
import WebSocketCore

/// The game catalog as the server serves it: the newest stored version in memory, encoded once per
/// version, and a feed that streams each new version to `observeCatalog` subscribers.
///
/// On first start (nothing stored) the bundled starter catalog is stored and served. A catalog imported
/// later with `parlor-server catalog import` lands in the store; `poll(every:)` notices the new version and
/// publishes it, so running servers pick it up without a restart.
final class CatalogService: Sendable {
    /// One version, with its bytes.
    struct Snapshot: Sendable {
        let catalog: Catalog
        /// The whole catalog as JSON (the `getCatalog` result and the `catalog` event's data).
        let encoded: EncodedJSON
        var version: Int { catalog.version }
        /// The strong entity tag of this version for `GET /catalog`: `"v3"`.
        var etag: String { "\"v\(catalog.version)\"" }
    }

    let feed = Feed()
    private let snapshot: NIOLockedValueBox<Snapshot>
    private let store: any ParlorStore
    private let logger: Logger

    private init(_ catalog: Catalog, store: any ParlorStore, logger: Logger) throws {
        let snapshot = try Self.snapshot(catalog)
        self.snapshot = NIOLockedValueBox(snapshot)
        self.store = store
        self.logger = logger
        feed.publish(FeedVersion(version: snapshot.version, frame: Self.eventFrame(topic: feed.topic, snapshot)))
    }

    /// Loads the newest stored catalog, or stores and serves the starter catalog when there is none.
    static func open(store: any ParlorStore, logger: Logger) async throws -> CatalogService {
        if let stored = try await store.loadCatalog() {
            logger.info("Catalog loaded", metadata: ["version": "\(stored.version)"])
            return try CatalogService(stored, store: store, logger: logger)
        }
        let starter = try StarterCatalog.load()
        try await store.saveCatalog(starter)
        logger.info("Catalog seeded from the starter catalog", metadata: ["version": "\(starter.version)"])
        return try CatalogService(starter, store: store, logger: logger)
    }

    var current: Snapshot { snapshot.withLockedValue { $0 } }

    var catalog: Catalog { current.catalog }

    /// `getCatalog {since?}`: the whole catalog, or `{unchanged: true, version}` when `since` is current.
    func get(since: Int?) throws(WireError) -> EncodedJSON {
        let current = current
        guard since == current.version else { return current.encoded }
        do {
            return try EncodedJSON(CatalogResult.unchanged(version: current.version))
        } catch {
            throw WireError.internalError("The catalog could not be encoded.")
        }
    }

    /// `observeCatalog`: the current version first, then each new one. Anyone may observe.
    func subscribe(user: UserID?) throws(WireError) -> FeedGrant {
        guard let grant = feed.grant(user: user) else {
            throw WireError(.shuttingDown, "The catalog is not being served; reconnect in a moment.")
        }
        return grant
    }

    /// Adopts `catalog` and publishes it if it is newer than the current version. True when it was.
    @discardableResult
    func adopt(_ catalog: Catalog) throws -> Bool {
        let next = try Self.snapshot(catalog)
        let adopted = snapshot.withLockedValue { current -> Bool in
            guard next.version > current.version else { return false }
            current = next
            return true
        }
        guard adopted else { return false }
        feed.publish(FeedVersion(version: next.version, frame: Self.eventFrame(topic: feed.topic, next)))
        logger.info("Catalog published", metadata: ["version": "\(next.version)"])
        return true
    }

    /// Looks in the store for a newer version and publishes it. True when there was one.
    @discardableResult
    func refresh() async -> Bool {
        do {
            guard let stored = try await store.loadCatalog() else { return false }
            return try adopt(stored)
        } catch {
            logger.warning("Catalog refresh failed", metadata: ["cause": "\(error)"])
            return false
        }
    }

    /// Refreshes every `interval` until the calling task is cancelled.
    func poll(every interval: Duration) async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            await refresh()
        }
    }

    private static func snapshot(_ catalog: Catalog) throws -> Snapshot {
        Snapshot(catalog: catalog, encoded: try EncodedJSON(CatalogResult.catalog(catalog)))
    }

    private static func eventFrame(topic: Int, _ snapshot: Snapshot) -> PreparedMessage {
        PreparedMessage(json: EventMessage.frame(subscription: topic, event: .catalog, data: snapshot.encoded))
    }
}
