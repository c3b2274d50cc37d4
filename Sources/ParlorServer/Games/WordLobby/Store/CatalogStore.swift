import ParlorRules

/// The word game's catalog as a store keeps it: every version stored, the highest served. Every kind of
/// store offers it (`SQLiteStore+Catalog`, `PostgresStore+Catalog`, `InMemoryStore+Catalog`), in the
/// table `catalogs` (version, payload, stored_at) of the databases' schemas.
protocol CatalogStore: Sendable {
    /// The catalog with the highest version, or nil when none was ever stored: clients sync by asking
    /// for anything newer than the version they hold, so the served version must never go backwards.
    func loadCatalog() async throws(StoreError) -> Catalog?

    /// Stores a catalog as its version (replacing what was stored as that version), durably.
    func saveCatalog(_ catalog: Catalog) async throws(StoreError)
}

extension StoreBackend {
    /// This store's catalog.
    var catalogs: any CatalogStore {
        switch self {
        case .memory(let store): store
        case .sqlite(let store): store
        #if PostgreSQL
        case .postgres(let store): store
        #endif
        }
    }
}

extension ParlorStore {
    /// The newest stored catalog, or nil when none was ever stored.
    func loadCatalog() async throws(StoreError) -> Catalog? {
        try await backend.catalogs.loadCatalog()
    }

    /// Stores a catalog as the newest version, as the store's own writes are (the server's store
    /// records whether it could).
    func saveCatalog(_ catalog: Catalog) async throws(StoreError) {
        let catalogs = backend.catalogs
        try await recordingWrite { () async throws(StoreError) in try await catalogs.saveCatalog(catalog) }
    }
}

extension Catalog {
    /// "catalog version 3", as a store's error names it.
    var storedName: String { "catalog version \(version)" }
}
