/// The kinds of store Parlor runs on. A game that keeps records of its own beside its games adds them to
/// each kind of store in its own folder (an extension of `SQLiteStore`, `PostgresStore` and
/// `InMemoryStore`) and reaches them through the store's `backend`: a switch over these cases, so a
/// store without them does not compile.
public enum StoreBackend: Sendable {
    /// `--no-persist`, and tests.
    case memory(InMemoryStore)
    /// `parlor.sqlite` in the data directory.
    case sqlite(SQLiteStore)
    #if PostgreSQL
    /// A database shared by the nodes of a cluster (`--postgres`), in a build with the PostgreSQL trait.
    case postgres(PostgresStore)

    /// The shared database, on a node of a cluster: files go there too, so that any node serves what
    /// another received.
    var sharedDatabase: PostgresStore? {
        if case .postgres(let database) = self { database } else { nil }
    }
    #endif
}
