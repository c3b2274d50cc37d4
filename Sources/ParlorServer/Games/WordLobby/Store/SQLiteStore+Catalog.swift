import ParlorSQLite
import ParlorRules

/// The catalog in SQLite (table `catalogs`), written outside the group commit in a transaction of its
/// own: it changes at start-up and when an operator imports one.
extension SQLiteStore: CatalogStore {
    func loadCatalog() async throws(StoreError) -> Catalog? {
        let row = try await read("Loading the catalog") { db in
            try SQLiteRow.fetchOne(db, sql: "SELECT version, payload FROM catalogs ORDER BY version DESC LIMIT 1").map {
                (version: try $0.decode(Int.self, forColumn: "version"),
                 payload: try $0.decode(String.self, forColumn: "payload"))
            }
        }
        guard let row else { return nil }
        return try StoredJSON.decode(
            Catalog.self, from: row.payload, what: "catalog version \(row.version)",
            location: "\(databasePath), table catalogs")
    }

    func saveCatalog(_ catalog: Catalog) async throws(StoreError) {
        let payload = try StoredJSON.encode(catalog, what: catalog.storedName)
        let version = catalog.version
        let stamp = now().millisecondsSinceEpoch
        try await write("Saving \(catalog.storedName)") { db in
            try db.execute(sql: """
                INSERT INTO catalogs (version, payload, stored_at) VALUES (?, ?, ?)
                ON CONFLICT (version) DO UPDATE SET payload = excluded.payload, stored_at = excluded.stored_at
                """, arguments: [version, payload, stamp])
        }
    }
}
