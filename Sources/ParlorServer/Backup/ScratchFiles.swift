import Foundation

/// A backup's files beside other backups' — the archive being written (`.FILE.<uuid>.partial`), the
/// database's snapshot (`.parlor-backup-<uuid>.sqlite`) — each created locked (`flock`, held until its
/// descriptor is closed or the process ends). A backup killed with `kill -9` leaves its files, unlocked;
/// the next backup removes those, never one still locked (being written).
enum ScratchFiles {
    /// Files named `prefix<uuid>suffix`.
    struct Pattern {
        let prefix: String
        let suffix: String

        func name() -> String { prefix + UUID().uuidString + suffix }

        func matches(_ name: String) -> Bool {
            guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.count > prefix.count + suffix.count else { return false }
            return UUID(uuidString: String(name.dropFirst(prefix.count).dropLast(suffix.count))) != nil
        }
    }

    /// Creates a new file of `pattern` in `folder` (mode 0600), locked; returns its path and descriptor.
    static func create(in folder: String, _ pattern: Pattern, for purpose: String) throws(BackupError) -> (path: String, descriptor: Int32) {
        while true {
            let path = folder + "/" + pattern.name()
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw BackupFiles.error("creating \(path) for \(purpose)") }
            guard flock(descriptor, LOCK_EX) == 0 else {
                let error = BackupFiles.error("locking \(path)")
                close(descriptor)
                unlink(path)
                throw error
            }
            // Another backup may have taken it for stale between its creation and its lock: make another.
            var info = stat()
            if fstat(descriptor, &info) == 0, info.st_nlink > 0 { return (path, descriptor) }
            close(descriptor)
        }
    }

    /// Removes the files of `pattern` in `folder` whose lock nobody holds, each with its `companions`
    /// (names it is the start of: SQLite's `-journal`).
    static func removeStale(in folder: String, _ pattern: Pattern, companions: [String] = []) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries where pattern.matches(entry) {
            let path = folder + "/" + entry
            let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }
            // Still the file under that name (not replaced since it was opened), then gone, under its lock.
            var opened = stat(), named = stat()
            guard fstat(descriptor, &opened) == 0, lstat(path, &named) == 0, opened.st_dev == named.st_dev, opened.st_ino == named.st_ino
            else { continue }
            unlink(path)
            for companion in companions { unlink(path + companion) }
        }
    }
}
