import Logging
import ParlorRules

/// `parlor-server catalog import FILE`: validates a catalog file and stores it as the newest version.
///
/// The stored catalog gets the next version number (one above the stored one, or above the starter
/// catalog's when nothing is stored yet) and `updatedAt` = now, whatever the file says. Running servers
/// over the same store notice the new version within their poll interval and publish it to their
/// `observeCatalog` subscribers (`WordGameConfiguration.catalogPollInterval`).
public enum CatalogImport {
    /// Imports `file` into the durable store in `dataDirectory`.
    public static func run(file: String, dataDirectory: String, logger: Logger) async throws -> Catalog {
        let catalog = try CatalogFile.decode(path: file)
        // Report the file's problems before touching the store; the version is replaced anyway.
        var probe = catalog
        probe.version = max(probe.version, 1)
        try CatalogFile.check(probe, file: file)
        let store = try StoreOpener.open(directory: dataDirectory, logger: logger)
        return try await run(catalog, file: file, store: store, at: SystemClock().now)
    }

    /// Imports `file` into `store`.
    public static func run(file: String, store: any ParlorStore, at now: Instant) async throws -> Catalog {
        try await run(try CatalogFile.decode(path: file), file: file, store: store, at: now)
    }

    private static func run(_ catalog: Catalog, file: String, store: any ParlorStore, at now: Instant) async throws -> Catalog {
        var catalog = catalog
        let stored = try await store.loadCatalog()
        catalog.version = max(stored?.version ?? 0, try StarterCatalog.load().version) + 1
        catalog.updatedAt = now
        try CatalogFile.check(catalog, file: file)
        try await store.saveCatalog(catalog)
        return catalog
    }
}
