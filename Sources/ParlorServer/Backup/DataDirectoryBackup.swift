import Foundation
import ParlorSQLite
import ParlorRules
import ParlorWire

/// A backup of a data directory, taken while a server may be running on it: the SQLite store copied
/// by `VACUUM INTO` (one read transaction: a consistent snapshot of every committed write, the
/// server's writes going on beside it), then every other file under the directory, in one archive
/// (`BackupArchiveWriter`).
///
/// Files: Parlor writes each one whole to a temporary name (a dot file, never archived) and renames
/// it into place, and never changes it afterwards, so every file copied is one whole version of it
/// (a file replaced while it is copied is read whole from the inode that was opened). Files are
/// copied after the database: every file the snapshot refers to had been written before it was taken,
/// and is in the archive unless it was removed in between (a quiz deleted, an avatar replaced while
/// the backup ran), which leaves the restored server without that photo or avatar, as the live one
/// now is. Files added after the snapshot are copied too, and nothing in the snapshot names them.
public struct DataDirectoryBackup: Sendable {
    public let dataDirectory: String
    /// Where the database's snapshot is made (it is removed from there as soon as it is open).
    public let scratchDirectory: String

    public init(dataDirectory: String, scratchDirectory: String) {
        self.dataDirectory = dataDirectory
        self.scratchDirectory = scratchDirectory
    }

    /// Writes the archive to `path` atomically: to a temporary file beside it (mode 0600: the archive
    /// holds the token-signing secret), flushed, then renamed over `path`. A backup that fails or is
    /// killed never leaves a partial archive under `path`. A killed one leaves its temporary file
    /// (`.NAME.<uuid>.partial`), which the next backup to `path` removes (`ScratchFiles`).
    public static func write(dataDirectory: String, to path: String) throws(BackupError) -> BackupManifest {
        let (folder, name) = BackupFiles.split(path)
        try refuseInside(dataDirectory: dataDirectory, output: folder)
        let partial = ScratchFiles.Pattern(prefix: ".\(name).", suffix: ".partial")
        let (temporary, descriptor) = try ScratchFiles.create(in: folder, partial, for: "the archive")
        ScratchFiles.removeStale(in: folder, partial)
        var closed = false
        defer {
            if !closed { close(descriptor) }
            unlink(temporary)
        }
        let backup = DataDirectoryBackup(dataDirectory: dataDirectory, scratchDirectory: folder)
        let manifest = try backup.write { bytes throws(BackupError) in
            try BackupFiles.writeAll(bytes, to: descriptor, path: temporary)
        }
        guard fsync(descriptor) == 0 else { throw BackupFiles.error("flushing \(temporary)") }
        // Renamed while still locked: were it closed first, another backup could take it for stale.
        guard rename(temporary, path) == 0 else { throw BackupFiles.error("renaming \(temporary) to \(path)") }
        closed = true
        guard close(descriptor) == 0 else { throw BackupFiles.error("closing \(path)") }
        try BackupFiles.syncDirectory(folder)
        return manifest
    }

    /// Writes the whole archive into `sink`, chunk by chunk; returns its manifest. `stop` stops it
    /// midway from another thread (its snapshot removed, whatever it copied).
    public func write(
        stop: BackupStop? = nil, into sink: @escaping (UnsafeRawBufferPointer) throws(BackupError) -> Void
    ) throws(BackupError) -> BackupManifest {
        try stop?.check()
        let database = dataDirectory + "/" + SQLiteDataDirectory.databaseFileName
        var info = stat()
        guard stat(database, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw BackupError(.io, "There is no Parlor database at \(database); give the --data-dir the server runs on.")
        }
        let snapshot = try Snapshot.take(of: database, in: scratchDirectory, stop: stop)
        defer { close(snapshot.descriptor) }
        let writer = BackupArchiveWriter { bytes throws(BackupError) in
            try stop?.check()
            try sink(bytes)
        }
        try writer.addFile(BackupManifest.databaseEntry, descriptor: snapshot.descriptor)
        for relative in try BackupFiles.dataFiles(under: dataDirectory) {
            let path = dataDirectory + "/" + relative
            let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else {
                if errno == ENOENT { continue }  // removed since the listing: nothing of it to keep
                throw BackupFiles.error("opening \(path)")
            }
            defer { close(descriptor) }
            try writer.addFile(BackupManifest.dataPrefix + relative, descriptor: descriptor)
        }
        let manifest = BackupManifest(
            format: BackupManifest.formatName, formatVersion: BackupManifest.currentFormatVersion,
            parlorVersion: ParlorRelease.version, schemaVersion: snapshot.schemaVersion,
            createdAt: snapshot.takenAt.iso8601, tables: snapshot.tables, files: [])
        return try writer.finish(manifest)
    }

    /// An archive inside the directory it backs up would be archived by the next backup.
    private static func refuseInside(dataDirectory: String, output folder: String) throws(BackupError) {
        let data = URL(fileURLWithPath: dataDirectory).standardizedFileURL.resolvingSymlinksInPath().path
        let out = URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath().path
        if out == data || out.hasPrefix(data + "/") {
            throw BackupError(.io, "The archive would be written inside the data directory \(dataDirectory), where the next backup would copy it; write it elsewhere.")
        }
    }
}

extension DataDirectoryBackup {
    /// The database copied by `VACUUM INTO`, opened for reading and already unlinked (a backup killed
    /// from here on leaves nothing behind), with what the manifest says about it.
    struct Snapshot {
        let descriptor: Int32
        let schemaVersion: Int
        let tables: [String: Int]
        let takenAt: Instant

        static let snapshotPattern = ScratchFiles.Pattern(prefix: ".parlor-backup-", suffix: ".sqlite")

        static func take(of database: String, in folder: String, stop: BackupStop?) throws(BackupError) -> Snapshot {
            // Created empty and locked first (VACUUM INTO fills an empty file), so that a backup killed
            // while copying leaves a snapshot the next backup knows for stale.
            let (path, lock) = try ScratchFiles.create(in: folder, snapshotPattern, for: "the database's copy")
            defer {
                unlink(path)
                // VACUUM INTO writes its copy under a rollback journal, which an interrupted copy may leave.
                unlink(path + "-journal")
                close(lock)
            }
            ScratchFiles.removeStale(in: folder, snapshotPattern, companions: ["-journal"])
            let takenAt = SystemClock().now
            do {
                // The live server commits meanwhile; the copy is one read transaction and waits for no one
                // but a checkpoint that holds the lock for an instant.
                let live = try SQLiteConnection(path: database, busyTimeout: .seconds(30))
                defer { live.close() }
                let copy = { try live.execute(sql: "VACUUM INTO ?", arguments: [path]) }
                if let stop { try stop.copying(live, copy) } else { try copy() }
            } catch let error as BackupError {
                throw error
            } catch {
                throw BackupError(.io, "Copying the database \(database) failed: \(error)")
            }
            let schemaVersion: Int
            var tables: [String: Int] = [:]
            do {
                let db = try SQLiteConnection(path: path)
                defer { db.close() }
                // A file of its own, not a WAL database waiting for its -wal and -shm.
                try db.execute(sql: "PRAGMA journal_mode = DELETE")
                let names = try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
                for name in names {
                    tables[name] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(name.quotedDatabaseIdentifier)") ?? 0
                }
                schemaVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            } catch {
                throw BackupError(.io, "Reading the database's copy \(path) failed: \(error)")
            }
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw BackupFiles.error("opening the database's copy \(path)") }
            return Snapshot(descriptor: descriptor, schemaVersion: schemaVersion, tables: tables, takenAt: takenAt)
        }
    }
}
