import ArgumentParser
import Foundation
import ParlorServer

/// `parlor-server backup`: the data directory in one archive, taken while the server runs.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write the data directory (database, avatars, quiz photos) to one archive while the server runs.",
        discussion: """
            The database is copied with SQLite's VACUUM INTO: one read transaction, so the copy holds every \
            change committed (acknowledged) before it began and the server keeps writing meanwhile. Every other \
            file under --data-dir follows. The archive is a ustar tar (data/…, then manifest.json and \
            checksum.sha256), written to a temporary file beside --to and renamed over it once complete, mode \
            0600: it holds the server's token-signing secret. Prints one line per table and a summary. Exit \
            status: 0 written; 1 failed (nothing is left under --to).
            """)

    @OptionGroup var storage: DataDirectoryOption

    @Option(help: ArgumentHelp("The archive to write (replaced if it exists; not inside --data-dir).", valueName: "file"))
    var to: String

    func run() throws {
        let manifest: BackupManifest
        do {
            manifest = try DataDirectoryBackup.write(dataDirectory: storage.dataDir, to: to)
        } catch {
            FileHandle.standardError.write(Data("parlor-server backup: \(error)\n".utf8))
            throw ExitCode(error.exitStatus)
        }
        for (table, rows) in manifest.tables.sorted(by: { $0.key < $1.key }) {
            print("\(table): \(rows) rows")
        }
        let bytes = manifest.files.reduce(Int64(0)) { $0 + $1.size }
        print("Backed up \(storage.dataDir) to \(to): schema \(manifest.schemaVersion), \(manifest.files.count) files, \(bytes) bytes, at \(manifest.createdAt).")
    }
}

/// `parlor-server restore`: an archive of `backup` put back as a new data directory.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put a backup archive back as a new data directory (--data-dir must be missing or empty).",
        discussion: """
            Unpacks into a temporary directory beside --data-dir, checks every file's SHA-256 and size against \
            the manifest, the archive's checksum, the schema and the database (integrity check, rows per table), \
            and only then renames it to --data-dir. Start the server on it afterwards. Exit status: 0 restored; \
            1 reading or writing failed; 2 --data-dir is not empty (or not a directory); 3 the archive is \
            damaged (truncated, a byte changed, not a Parlor backup); 4 the archive is from a newer Parlor.
            """)

    @Argument(help: ArgumentHelp("The archive `parlor-server backup` wrote.", valueName: "file"))
    var archive: String

    @OptionGroup var storage: DataDirectoryOption

    func run() throws {
        let manifest: BackupManifest
        do {
            manifest = try DataDirectoryRestore.restore(archive: archive, into: storage.dataDir)
        } catch {
            FileHandle.standardError.write(Data("parlor-server restore: \(error)\n".utf8))
            throw ExitCode(error.exitStatus)
        }
        let rows = manifest.tables.values.reduce(0, +)
        print("Restored \(archive) into \(storage.dataDir): schema \(manifest.schemaVersion), \(manifest.files.count) files, \(rows) rows, backed up at \(manifest.createdAt) by Parlor \(manifest.parlorVersion).")
    }
}
