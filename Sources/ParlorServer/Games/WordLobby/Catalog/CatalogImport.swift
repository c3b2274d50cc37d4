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
        let prepared = try prepare(file: file, dataDirectory: dataDirectory)
        let outcome: Result<Catalog, any Error>
        do {
            outcome = .success(try await run(prepared.catalog, file: file, store: prepared.store, at: SystemClock().now))
        } catch {
            outcome = .failure(error)
        }
        await prepared.store.close()
        prepared.lock?.release()
        return try outcome.get()
    }

    private struct Prepared {
        let catalog: Catalog
        let store: SQLiteStore
        let lock: DataDirectoryLock?
    }

    /// Reads and checks the file, then opens the store, with the data directory's lock when no server
    /// holds it.
    ///
    /// Synchronous, separate and never inlined on purpose: Swift 6.3.1's optimiser crashes (LLVM
    /// coroutine splitting around swifterror) when these typed-throwing calls sit in the async function.
    @inline(never)
    private static func prepare(file: String, dataDirectory: String) throws -> Prepared {
        // Report the file's problems before touching the store; the version is replaced anyway.
        let catalog = try checked(file)
        _ = try SQLiteDataDirectory.prepare(dataDirectory)
        let lock = try? DataDirectoryLock(directory: dataDirectory)
        var configuration = SQLiteStoreConfiguration()
        // With a server running, it checked the file when it opened it; a full read here would only slow it down.
        configuration.checksIntegrityAtStart = lock != nil
        return Prepared(catalog: catalog, store: try SQLiteStore(directory: dataDirectory, configuration: configuration), lock: lock)
    }

    #if PostgreSQL
    /// Imports `file` into the PostgreSQL database at `location` (which nodes may be serving: the
    /// catalog is one row, written in one transaction). The file is checked before the database is
    /// reached, so a bad file is reported the same with or without one.
    public static func run(file: String, postgres location: PostgresLocation, logger: Logger) async throws -> Catalog {
        let catalog = try checked(file)
        let store = try await PostgresStore(location: location, logger: logger)
        let outcome: Result<Catalog, any Error>
        do {
            outcome = .success(try await run(catalog, file: file, store: store, at: SystemClock().now))
        } catch {
            outcome = .failure(error)
        }
        await store.close()
        return try outcome.get()
    }
    #endif

    /// Reads and checks `file` as `prepare` does, without a store.
    @inline(never)
    private static func checked(_ file: String) throws -> Catalog {
        let catalog = try CatalogFile.decode(path: file)
        var probe = catalog
        probe.version = max(probe.version, 1)
        try CatalogFile.check(probe, file: file)
        return catalog
    }

    /// Imports `file` into `store`.
    public static func run(file: String, store: any ParlorStore, at now: Instant) async throws -> Catalog {
        try await run(try decode(file), file: file, store: store, at: now)
    }

    @inline(never)
    private static func decode(_ file: String) throws -> Catalog {
        try CatalogFile.decode(path: file)
    }

    /// The catalog as it will be stored: the next version, stamped now, checked again.
    @inline(never)
    private static func numbered(_ catalog: Catalog, after stored: Catalog?, at now: Instant, file: String) throws -> Catalog {
        var catalog = catalog
        catalog.version = max(stored?.version ?? 0, try StarterCatalog.load().version) + 1
        catalog.updatedAt = now
        try CatalogFile.check(catalog, file: file)
        return catalog
    }

    private static func run(_ catalog: Catalog, file: String, store: any ParlorStore, at now: Instant) async throws -> Catalog {
        let stored = try await store.loadCatalog()
        let catalog = try numbered(catalog, after: stored, at: now, file: file)
        try await store.saveCatalog(catalog)
        return catalog
    }
}
