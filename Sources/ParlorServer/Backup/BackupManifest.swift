import ParlorWire

/// What a backup archive says about itself, as `manifest.json` — the archive's second-to-last entry
/// (after the files it describes, so the archive can be streamed as it is made; before `checksum.sha256`,
/// the SHA-256 of every byte before that entry).
public struct BackupManifest: Codable, Sendable, Equatable {
    /// `parlor-backup`: what the archive is.
    public var format: String
    /// The layout of the archive; a restore refuses a number it does not know.
    public var formatVersion: Int
    /// The Parlor that wrote it (`ParlorRelease.version`).
    public var parlorVersion: String
    /// The database's schema (`PRAGMA user_version`): a restore refuses one newer than it runs.
    public var schemaVersion: Int
    /// ISO-8601, when the database was copied.
    public var createdAt: String
    /// Rows per table of the copied database.
    public var tables: [String: Int]
    /// Every entry under `data/`, in archive order.
    public var files: [File]

    public struct File: Codable, Sendable, Equatable {
        /// The entry's name in the archive (`data/` + its path in the data directory).
        public var path: String
        public var size: Int64
        /// Lowercase hex.
        public var sha256: String
    }

    static let formatName = "parlor-backup"
    static let currentFormatVersion = 1
    /// Entry names: the data directory's files go under `data/` (so `tar -xf` gives a data directory),
    /// then the manifest, then the checksum of everything before it.
    static let dataPrefix = "data/"
    static let manifestName = "manifest.json"
    static let checksumName = "checksum.sha256"
    /// The archive's name for the database, which is written from its snapshot.
    static let databaseEntry = dataPrefix + SQLiteDataDirectory.databaseFileName
    /// A manifest is a few hundred bytes per file; this bounds what a restore reads into memory.
    static let maxManifestBytes: Int64 = 64 * 1024 * 1024
}
