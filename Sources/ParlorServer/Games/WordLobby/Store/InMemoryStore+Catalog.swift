import ParlorRules

/// The catalog in memory: the one with the highest version stored so far.
extension InMemoryStore: CatalogStore {
    private static let catalogRecord = "catalog"

    func loadCatalog() async throws(StoreError) -> Catalog? {
        state.withLockedValue { $0.records[Self.catalogRecord] as? Catalog }
    }

    func saveCatalog(_ catalog: Catalog) async throws(StoreError) {
        state.withLockedValue { $0.records[Self.catalogRecord] = catalog }
    }
}
