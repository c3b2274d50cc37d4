import ParlorSQLite

/// Turns what SQLite reports into a `StoreError` whose kind tells the caller what
/// kind of trouble it is and whose reason tells an operator what to do about it.
///
/// Mapped on the primary result code: the extended codes (`SQLITE_IOERR_FSYNC`, `SQLITE_CORRUPT_INDEX`,
/// …) refine the same trouble, and the message we quote carries their detail.
enum SQLiteErrorMapping {
    /// `doing` completes "… failed", e.g. "Saving 3 writes", "Opening the database".
    static func storeError(_ error: any Error, doing: String, file: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if error is CancellationError {
            return StoreError(.failed, "\(doing) in \(file) was cancelled before it ran.")
        }
        guard let error = error as? SQLiteError else {
            return StoreError(.failed, "\(doing) in \(file) failed: \(error)")
        }
        let sqlite = "SQLite error \(error.extendedCode): \(error.message)"
        switch error.code {
        case .full:
            return StoreError(
                .diskFull,
                "\(doing) failed: the disk holding \(file) is full (\(sqlite)). Free space on that volume or raise its quota; everything acknowledged before is intact and later writes succeed once there is room.")
        case .corrupt, .notADatabase:
            return corrupt(file: file, detail: sqlite)
        case .cantOpen, .permission, .readOnly, .auth, .ioError:
            return StoreError(
                .unavailable,
                "\(doing) failed: cannot read or write \(file) (\(sqlite)). Check that its disk is mounted and healthy and that the server's user can read and write the file and its directory.")
        case .busy, .locked:
            return StoreError(
                .failed,
                "\(doing) failed: \(file) is locked by another connection (\(sqlite)). Make sure no other Parlor server or tool is using the same data directory.")
        default:
            return StoreError(.failed, "\(doing) in \(file) failed: \(sqlite)")
        }
    }

    static func corrupt(file: String, detail: String) -> StoreError {
        StoreError(
            .corrupt,
            "\(file) is not a Parlor database or is damaged (\(detail)). Parlor will not start over it: stop the server, move the file and its -wal and -shm files aside (or restore them from a backup), then start again.")
    }
}
