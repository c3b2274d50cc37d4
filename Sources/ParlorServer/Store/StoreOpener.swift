import Logging

/// Opens the configured durable store.
enum StoreOpener {
    static func open(directory: String, logger: Logger) throws -> any ParlorStore {
        // Until the SQLite store lands, the durable path is unavailable rather than silently volatile.
        throw StoreError(.unavailable, "The durable store is not built into this version; run with --no-persist.")
    }
}
