import Foundation

/// The file-system work backups and restores share, in POSIX terms so an operator reads the system's
/// reason ("No space left on device", "Permission denied") for the path it concerns.
enum BackupFiles {
    /// Not archived from the top of the directory: the database and SQLite's files beside it (the
    /// archive's database comes from a snapshot instead), and the running server's lock file.
    static let runtimeFiles: Set<String> = ["", "-wal", "-shm", "-journal"].reduce(into: [DataDirectoryLock.fileName]) {
        $0.insert(SQLiteDataDirectory.databaseFileName + $1)
    }

    /// Every regular file under `directory` to archive, as paths relative to it, sorted: all but the
    /// database's own files and the lock file at the top and anything whose name starts with a dot (Parlor's files being
    /// written: `.upload-…`, `.PHOTO.partial`). Symbolic links and other special files are not followed.
    static func dataFiles(under directory: String) throws(BackupError) -> [String] {
        var found: [String] = []
        try walk(directory, relative: "", into: &found)
        return found.sorted()
    }

    private static func walk(_ directory: String, relative: String, into found: inout [String]) throws(BackupError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            // A folder removed while we walk (a quiz deleted) had nothing left to copy.
            if !FileManager.default.fileExists(atPath: directory) { return }
            throw BackupError(.io, "Cannot list \(directory): \(error.localizedDescription)")
        }
        for name in names where !name.hasPrefix(".") {
            if relative.isEmpty, runtimeFiles.contains(name) { continue }
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else {
                if errno == ENOENT { continue }
                throw error("looking at \(path)")
            }
            let child = relative.isEmpty ? name : relative + "/" + name
            switch info.st_mode & S_IFMT {
            case S_IFDIR: try walk(path, relative: child, into: &found)
            case S_IFREG: found.append(child)
            default: continue
            }
        }
    }

    /// An `io` error for the current `errno`.
    static func error(_ doing: String) -> BackupError {
        let code = errno
        let reason = strerror(code).map { String(cString: $0) } ?? "error \(code)"
        return BackupError(.io, "Failed \(doing): \(reason).")
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Flushes a folder's entries (a rename or a new file in it) to disk.
    static func syncDirectory(_ path: String) throws(BackupError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { throw error("opening \(path)") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw error("flushing \(path)") }
    }

    /// `body` given `bytes`' storage, keeping `BackupError` typed (the standard library's
    /// `withUnsafeBytes` rethrows untyped).
    static func withBytes(_ bytes: some ContiguousBytes, _ body: (UnsafeRawBufferPointer) throws(BackupError) -> Void) throws(BackupError) {
        try bytes.withUnsafeBytes { raw in Result { () throws(BackupError) in try body(raw) } }.get()
    }

    /// Writes all of `bytes` to `descriptor`.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws(BackupError) {
        var written = 0
        while written < bytes.count {
            guard let base = bytes.baseAddress else { return }
            let count = write(descriptor, base + written, bytes.count - written)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw error("writing \(path)") }
            written += count
        }
    }

    /// The folder a path is in, and its last component.
    static func split(_ path: String) -> (folder: String, name: String) {
        let url = URL(fileURLWithPath: path)
        return (url.deletingLastPathComponent().path, url.lastPathComponent)
    }
}
