import Foundation
import ParlorSQLite
import SystemTLS

/// A backup archive put back as a data directory. Nothing is written under the destination until the
/// whole archive has been read and checked: the files go to a temporary folder beside it (in the
/// same parent, so on the same file system), every file's SHA-256 and size is checked against the
/// manifest and the archive's own checksum against its bytes, the database is opened (its schema, an
/// integrity check, its rows counted against the manifest), and only then is the folder renamed to
/// the destination. A refused archive leaves the destination as it was.
public enum DataDirectoryRestore {
    public static func restore(archive: String, into destination: String) throws(BackupError) -> BackupManifest {
        try checkEmpty(destination)
        let (parent, name) = BackupFiles.split(destination)
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw BackupError(.io, "Cannot create \(parent) for the restored data directory: \(error.localizedDescription)")
        }
        let reader = try BackupArchiveReader(path: archive)
        let temporary = "\(parent)/.\(name).restore-\(UUID().uuidString)"
        guard mkdir(temporary, 0o700) == 0 else { throw BackupFiles.error("creating \(temporary)") }
        var kept = false
        defer { if !kept { try? FileManager.default.removeItem(atPath: temporary) } }

        let unpacked = try Unpacking(reader: reader, into: temporary).run()
        let manifest = try check(unpacked, archive: archive)
        try checkDatabase(temporary + "/" + SQLiteDataDirectory.databaseFileName, manifest: manifest, archive: archive)

        for folder in unpacked.folders.sorted(by: >) { try BackupFiles.syncDirectory(folder) }
        try BackupFiles.syncDirectory(temporary)
        // rename(2) replaces an empty directory, and fails (ENOTEMPTY) if one appeared with something in it.
        guard rename(temporary, destination) == 0 else { throw BackupFiles.error("renaming \(temporary) to \(destination)") }
        kept = true
        try BackupFiles.syncDirectory(parent)
        return manifest
    }

    /// A destination that does not exist, or an empty directory.
    static func checkEmpty(_ destination: String) throws(BackupError) {
        var info = stat()
        guard stat(destination, &info) == 0 else {
            if errno == ENOENT { return }
            throw BackupFiles.error("looking at \(destination)")
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw BackupError(.destinationNotEmpty, "\(destination) exists and is not a directory; restore into a new or empty directory.")
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: destination)) ?? []
        guard entries.isEmpty else {
            throw BackupError(
                .destinationNotEmpty,
                "\(destination) is not empty (\(entries.count) entries, such as \(entries.sorted()[0])); restore refuses to mix a backup with other data. Restore into a new or empty directory, then point --data-dir at it.")
        }
    }

    /// The archive's manifest, once it agrees with what was unpacked and the archive's checksum holds.
    private static func check(_ unpacked: Unpacking.Result, archive: String) throws(BackupError) -> BackupManifest {
        func damaged(_ what: String) -> BackupError {
            BackupError(.damaged, "The archive \(archive) is damaged: \(what). Nothing was restored; use another copy of the backup.")
        }
        guard let checksum = unpacked.checksum else { throw damaged("it has no \(BackupManifest.checksumName) entry (not a Parlor backup, or cut short)") }
        guard let manifestBytes = unpacked.manifest else { throw damaged("it has no \(BackupManifest.manifestName)") }
        let manifest: BackupManifest
        do {
            manifest = try JSONDecoder().decode(BackupManifest.self, from: Data(manifestBytes))
        } catch {
            throw damaged(checksum.matches ? "its manifest cannot be read (\(error))" : "its checksum does not match its bytes, and its manifest cannot be read")
        }
        guard manifest.format == BackupManifest.formatName else { throw damaged("it is not a Parlor backup (format \(manifest.format))") }
        let listed = Dictionary(manifest.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        for file in unpacked.files {
            guard let expected = listed[file.path] else { throw damaged("\(file.path) is in the archive but not in its manifest") }
            if expected.size != file.size {
                throw damaged("\(file.path) is \(file.size) bytes, the manifest says \(expected.size)")
            }
            if expected.sha256 != file.sha256 {
                throw damaged("\(file.path) has SHA-256 \(file.sha256), the manifest says \(expected.sha256) (a byte of it changed)")
            }
        }
        let present = Set(unpacked.files.map(\.path))
        if let missing = manifest.files.first(where: { !present.contains($0.path) }) {
            throw damaged("\(missing.path) is in the manifest but not in the archive")
        }
        guard checksum.matches else {
            throw damaged("its checksum \(checksum.stored) does not match its bytes (\(checksum.computed)): a byte changed outside the files, in a header or the manifest")
        }
        guard present.contains(BackupManifest.databaseEntry) else { throw damaged("it holds no \(BackupManifest.databaseEntry)") }
        if manifest.formatVersion > BackupManifest.currentFormatVersion {
            throw BackupError(
                .newer,
                "The archive \(archive) was written by a newer Parlor (\(manifest.parlorVersion), archive format \(manifest.formatVersion); this one reads up to \(BackupManifest.currentFormatVersion)). Restore it with that Parlor or a later one.")
        }
        if manifest.schemaVersion > SQLiteSchema.supportedVersion {
            throw BackupError(
                .newer,
                "The archive \(archive) holds a database from a newer Parlor (\(manifest.parlorVersion), schema \(manifest.schemaVersion); this one runs up to schema \(SQLiteSchema.supportedVersion)). Restore it with that Parlor or a later one.")
        }
        return manifest
    }

    /// The restored database opens, passes `integrity_check` and holds the rows the manifest counted.
    private static func checkDatabase(_ path: String, manifest: BackupManifest, archive: String) throws(BackupError) {
        do {
            let db = try SQLiteConnection(path: path, readOnly: true)
            defer { db.close() }
            try db.inTransaction(.deferred) { () throws in
                let problems = try String.fetchAll(db, sql: "PRAGMA integrity_check(5)")
                guard problems == ["ok"] else {
                    throw BackupError(.damaged, "The archive \(archive)'s database fails SQLite's integrity check: \(problems.joined(separator: "; ")).")
                }
                let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                guard version == manifest.schemaVersion else {
                    throw BackupError(.damaged, "The archive \(archive)'s database is at schema \(version), its manifest says \(manifest.schemaVersion).")
                }
                for (table, expected) in manifest.tables.sorted(by: { $0.key < $1.key }) {
                    let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0
                    guard count == expected else {
                        throw BackupError(.damaged, "The archive \(archive)'s database has \(count) rows in \(table), its manifest says \(expected).")
                    }
                }
            }
        } catch let error as BackupError {
            throw error
        } catch {
            throw BackupError(.damaged, "The archive \(archive)'s database cannot be read: \(error).")
        }
    }
}
