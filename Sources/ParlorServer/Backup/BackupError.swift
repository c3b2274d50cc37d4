/// Why a backup or a restore stopped, with the sentence an operator reads and the exit status the
/// commands give for it (README, "Backups").
public struct BackupError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Reading the data directory or writing the archive (or the restored directory) failed.
        case io
        /// `restore` was given a destination that is not empty, or not a directory.
        case destinationNotEmpty
        /// The archive is not a whole, unaltered Parlor backup: truncated, a byte changed, not one at all.
        case damaged
        /// The archive was written by a newer Parlor (its schema or its format).
        case newer
        /// Another backup of this server is running (`GET /admin/backup`).
        case busy
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// The exit status of `parlor-server backup` and `restore` for this error.
    public var exitStatus: Int32 {
        switch kind {
        case .io, .busy: 1
        case .destinationNotEmpty: 2
        case .damaged: 3
        case .newer: 4
        }
    }
}
