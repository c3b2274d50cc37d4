import NIOConcurrencyHelpers

/// Where uploaded files live: a folder per user (`{user_id}/{name}`) in a bucket. `DirectoryStorage`
/// keeps them under the data directory; `MemoryStorage` (with `--no-persist`, and in tests) in memory.
/// Every call that writes returns once the change is durable.
protocol ObjectStorage: Sendable {
    func write(_ bytes: [UInt8], folder: String, name: String) async throws(StoreError)
    func read(folder: String, name: String) async throws(StoreError) -> [UInt8]?
    /// The names in `folder`, in no particular order; empty when it does not exist.
    func list(folder: String) async throws(StoreError) -> [String]
    func remove(folder: String, name: String) async throws(StoreError)
}

/// Files in memory: nothing survives a restart.
final class MemoryStorage: ObjectStorage {
    private let files = NIOLockedValueBox<[String: [String: [UInt8]]]>([:])

    func write(_ bytes: [UInt8], folder: String, name: String) async throws(StoreError) {
        files.withLockedValue { $0[folder, default: [:]][name] = bytes }
    }

    func read(folder: String, name: String) async throws(StoreError) -> [UInt8]? {
        files.withLockedValue { $0[folder]?[name] }
    }

    func list(folder: String) async throws(StoreError) -> [String] {
        files.withLockedValue { Array(($0[folder] ?? [:]).keys) }
    }

    func remove(folder: String, name: String) async throws(StoreError) {
        files.withLockedValue { files in
            files[folder]?.removeValue(forKey: name)
            if files[folder]?.isEmpty == true { files.removeValue(forKey: folder) }
        }
    }
}
