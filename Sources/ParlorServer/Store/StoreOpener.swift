#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging

/// Opens the configured durable store, holding an exclusive lock on its data directory so two servers
/// cannot write the same database.
enum StoreOpener {
    static func open(
        directory: String, configuration: SQLiteStoreConfiguration = .init(), logger: Logger
    ) throws -> (store: SQLiteStore, lock: DataDirectoryLock) {
        _ = try SQLiteDataDirectory.prepare(directory)
        let lock = try DataDirectoryLock(directory: directory)
        let store = try SQLiteStore(directory: directory, configuration: configuration)
        logger.info("Store opened", metadata: ["database": "\(store.databasePath)"])
        return (store, lock)
    }
}

/// An exclusive `flock` on `<data dir>/parlor.lock`, held for as long as this value lives.
final class DataDirectoryLock: Sendable {
    static let fileName = "parlor.lock"
    private let descriptor: Int32

    init(directory: String) throws(StoreError) {
        let path = directory.hasSuffix("/") ? directory + Self.fileName : directory + "/" + Self.fileName
        let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StoreError(.unavailable, "Cannot open \(path): \(String(cString: strerror(errno))).")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw StoreError(
                .unavailable,
                "Another parlor-server is already using the data directory \(directory); stop it, or choose another --data-dir.")
        }
        self.descriptor = descriptor
    }

    /// Lets go of the lock now (it is also released when this value goes away).
    func release() {
        flock(descriptor, LOCK_UN)
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
