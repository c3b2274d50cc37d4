import Logging
import ParlorRules

/// `parlor-server catalog import FILE`: validates a catalog file and stores it as the newest version.
///
/// The stored catalog gets the next version number (one above the stored one, or above the starter
/// catalog's when nothing is stored yet) and `updatedAt` = now, whatever the file says. Running servers
/// over the same store notice the new version within their poll interval and publish it to their
/// `observeCatalog` subscribers (`WordGameConfiguration.catalogPollInterval`).
public enum CatalogImport {
    /// Imports `file` into the SQLite store in `dataDirectory`, whether or not a server is running on it.
    ///
    /// A running server holds the data directory's lock, which keeps a second *server* out: two sets of
    /// actors would each believe they own the same rooms. The import is not that: it writes one row of
    /// the catalog table in one transaction, which SQLite (in WAL mode, with a busy timeout) serialises
    /// with the server's own writes, and it touches nothing the server holds in memory. So it takes the
    /// lock when it is free (no server can start meanwhile) and goes ahead without it when a server has it.
    public static func run(file: String, dataDirectory: String, logger: Logger) async throws -> Catalog {
        let catalog = try CatalogFile.decode(path: file)
        // Report the file's problems before touching the store; the version is replaced anyway.
        var probe = catalog
        probe.version = max(probe.version, 1)
        try CatalogFile.check(probe, file: file)

        _ = try SQLiteDataDirectory.prepare(dataDirectory)
        let lock = try? DataDirectoryLock(directory: dataDirectory)
        var configuration = SQLiteStoreConfiguration()
        // With a server running, it checked the file when it opened it; a full read here would only slow it down.
        configuration.checksIntegrityAtStart = lock != nil
        let store = try SQLiteStore(directory: dataDirectory, configuration: configuration)
        do {
            let stored = try await run(catalog, file: file, store: store, at: SystemClock().now)
            await store.close()
            withExtendedLifetime(lock) {}
            return stored
        } catch {
            await store.close()
            throw error
        }
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
