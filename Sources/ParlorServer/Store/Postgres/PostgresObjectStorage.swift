// Built only with the PostgreSQL trait (`swift build --traits PostgreSQL`): see Package.swift.
#if PostgreSQL
import Foundation
import NIOCore

/// Uploaded files (avatars) as rows of `files` in the shared database, so any node serves a file
/// another node received. Each write is committed before it returns.
final class PostgresObjectStorage: ObjectStorage {
    private let store: PostgresStore
    private let bucket: String

    init(store: PostgresStore, bucket: String) {
        self.store = store
        self.bucket = bucket
    }

    func write(_ bytes: [UInt8], folder: String, name: String) async throws(StoreError) {
        let stamp = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        try await store.execute("Saving \(bucket)/\(folder)/\(name)", """
            INSERT INTO files (bucket, folder, name, bytes, updated_at) VALUES (\(bucket), \(folder), \(name), \(ByteBuffer(bytes: bytes)), \(stamp))
            ON CONFLICT (bucket, folder, name) DO UPDATE SET bytes = excluded.bytes, updated_at = excluded.updated_at
            """)
    }

    func read(folder: String, name: String) async throws(StoreError) -> [UInt8]? {
        try await store.read(
            "Reading \(bucket)/\(folder)/\(name)",
            "SELECT bytes FROM files WHERE bucket = \(bucket) AND folder = \(folder) AND name = \(name)"
        ) { row in Array(try row.decode(ByteBuffer.self).readableBytesView) }.first
    }

    func list(folder: String) async throws(StoreError) -> [String] {
        try await store.read("Listing \(bucket)/\(folder)", "SELECT name FROM files WHERE bucket = \(bucket) AND folder = \(folder)") { row in
            try row.decode(String.self)
        }
    }

    /// `length` bytes of a file from `offset` (fewer where it ends), and the file's size; nil when there
    /// is no such file. Reads only what is asked for: a photo's tile, not the whole photo.
    func read(folder: String, name: String, offset: Int, length: Int) async throws(StoreError) -> (bytes: [UInt8], size: Int)? {
        try await store.read("Reading \(bucket)/\(folder)/\(name)", """
            SELECT substring(bytes FROM \(offset + 1)::integer FOR \(length)::integer), octet_length(bytes)
            FROM files WHERE bucket = \(bucket) AND folder = \(folder) AND name = \(name)
            """) { row in
            let (bytes, size) = try row.decode((ByteBuffer, Int).self)
            return (bytes: Array(bytes.readableBytesView), size: size)
        }.first
    }

    /// Removes a folder and every file in it.
    func remove(folder: String) async throws(StoreError) {
        try await store.execute("Removing \(bucket)/\(folder)", "DELETE FROM files WHERE bucket = \(bucket) AND folder = \(folder)")
    }

    /// The folders that hold files.
    func folders() async throws(StoreError) -> [String] {
        try await store.read("Listing \(bucket)", "SELECT DISTINCT folder FROM files WHERE bucket = \(bucket)") { row in
            try row.decode(String.self)
        }
    }

    func remove(folder: String, name: String) async throws(StoreError) {
        try await store.execute(
            "Removing \(bucket)/\(folder)/\(name)", "DELETE FROM files WHERE bucket = \(bucket) AND folder = \(folder) AND name = \(name)")
    }
}
#endif
