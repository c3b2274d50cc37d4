// Built only with the PostgreSQL trait (`swift build --traits PostgreSQL`): see Package.swift.
#if PostgreSQL
import ParlorRules
import PostgresNIO

/// The catalog in PostgreSQL (table `catalogs`, as in SQLite), written outside the group commit in a
/// transaction of its own: it changes at start-up and when an operator imports one.
extension PostgresStore: CatalogStore {
    func loadCatalog() async throws(StoreError) -> Catalog? {
        let rows = try await read("Loading the catalog", "SELECT version, payload FROM catalogs ORDER BY version DESC LIMIT 1") { row in
            try row.decode((Int, String).self)
        }
        guard let (version, payload) = rows.first else { return nil }
        return try StoredJSON.decode(Catalog.self, from: payload, what: "catalog version \(version)", location: "\(location), table catalogs")
    }

    func saveCatalog(_ catalog: Catalog) async throws(StoreError) {
        let payload = try StoredJSON.encode(catalog, what: catalog.storedName)
        let version = catalog.version
        let stamp = now().millisecondsSinceEpoch
        try await execute("Saving \(catalog.storedName)", """
            INSERT INTO catalogs (version, payload, stored_at) VALUES (\(version), \(payload), \(stamp))
            ON CONFLICT (version) DO UPDATE SET payload = excluded.payload, stored_at = excluded.stored_at
            """)
    }
}
#endif
