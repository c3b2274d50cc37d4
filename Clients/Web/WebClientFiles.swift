import Foundation

/// The browser client: plain HTML, CSS and JavaScript modules in `Site/`, shipped as this target's
/// resources so `swift run`, a release build and a clean clone all serve the same files with no build
/// step. The server reads them once at start-up (`GET /` and `/web/…`).
public enum WebClientFiles {
    /// One file of the site, by its path under `Site/` (`index.html`, `js/app.js`).
    public struct File: Sendable, Equatable {
        public let path: String
        public let bytes: [UInt8]
    }

    /// Every file of the site, sorted by path.
    public static func load() throws(WebClientFilesError) -> [File] {
        guard let root = Bundle.module.url(forResource: "Site", withExtension: nil) else {
            throw WebClientFilesError(reason: "the web client's files are missing from the server's resources; reinstall parlor-server")
        }
        return try load(from: root)
    }

    /// Every regular file under `root`, recursively, sorted by path; hidden files are skipped.
    static func load(from root: URL) throws(WebClientFilesError) -> [File] {
        let base = root.standardizedFileURL.resolvingSymlinksInPath().path
        guard let walker = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else {
            throw WebClientFilesError(reason: "cannot list \(base)")
        }
        var files: [File] = []
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let full = url.standardizedFileURL.resolvingSymlinksInPath().path
            guard full.hasPrefix(base + "/") else { continue }
            guard let data = FileManager.default.contents(atPath: full) else {
                throw WebClientFilesError(reason: "cannot read \(full)")
            }
            files.append(File(path: String(full.dropFirst(base.count + 1)), bytes: Array(data)))
        }
        return files.sorted { $0.path < $1.path }
    }
}

/// The web client's files could not be read.
public struct WebClientFilesError: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public var description: String { "web client: \(reason)" }
}
