#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The data directory: created when missing, with the operating system's reason when that fails.
///
/// Written against POSIX rather than `FileManager` because an operator needs to read *why* ("Not a
/// directory", "Permission denied", "No space left on device") and for which component of the path,
/// and Foundation's errors on Linux tend to lose both.
enum SQLiteDataDirectory {
    static let databaseFileName = "parlor.sqlite"

    /// Creates `path` and any missing parents (like `mkdir -p`), then checks that it is a directory
    /// this process can write into. Returns the path of the database file inside it.
    static func prepare(_ path: String) throws(StoreError) -> String {
        guard !path.isEmpty else {
            throw StoreError(.unavailable, "The data directory path is empty; pass a directory such as ./parlor-data.")
        }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += prefix.isEmpty || prefix.hasSuffix("/") ? String(component) : "/" + component
            try makeDirectory(prefix, wanted: path)
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw StoreError(
                .unavailable,
                "Cannot write to the data directory \(path): \(reason(errno)). Give the server's user write access to it, or choose another --data-dir.")
        }
        return path.hasSuffix("/") ? path + databaseFileName : path + "/" + databaseFileName
    }

    private static func makeDirectory(_ component: String, wanted path: String) throws(StoreError) {
        if mkdir(component, 0o755) == 0 { return }
        let mkdirError = errno
        var info = stat()
        if stat(component, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { return }
            throw StoreError(
                .unavailable,
                "Cannot create the data directory \(path): \(component) exists and is not a directory. Move that file away, or choose another --data-dir.")
        }
        throw StoreError(
            .unavailable,
            "Cannot create the data directory \(path): creating \(component) failed: \(reason(mkdirError)). Create it by hand with write access for the server's user, or choose another --data-dir.")
    }

    private static func reason(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
