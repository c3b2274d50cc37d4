#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Tokens kept in a JSON file (`{"ws://localhost:8080/ws": "…"}`), readable by its owner only.
///
/// The default file is `$XDG_CONFIG_HOME/parlor/tokens.json`, or `~/.config/parlor/tokens.json`. The
/// directory is created `0700` and the file `0600`; every change rewrites the file atomically (a
/// temporary file renamed over it) under an exclusive lock, so several clients on one machine can store
/// tokens for different servers or profiles at once without losing each other's.
public struct FileTokenStore: TokenStore {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The store at the default path for this environment.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(path: Self.defaultPath(environment: environment))
    }

    /// `$XDG_CONFIG_HOME/parlor/tokens.json` when XDG_CONFIG_HOME is set (and absolute), else
    /// `$HOME/.config/parlor/tokens.json`.
    public static func defaultPath(environment: [String: String]) -> String {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return "\(xdg)/parlor/tokens.json"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return "\(home)/.config/parlor/tokens.json"
    }

    public func token(for key: String) -> String? {
        Self.read(path)[key]
    }

    public func setToken(_ token: String?, for key: String) throws(TokenStoreError) {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw TokenStoreError("Cannot create \(directory) to keep the sign-in token: \(error.localizedDescription)")
        }
        try withLock { () throws(TokenStoreError) in
            var tokens = Self.read(path)
            tokens[key] = token
            try save(tokens)
        }
    }

    /// Missing or unreadable files read as empty: the worst outcome is a new identity.
    private static func read(_ path: String) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path),
              let tokens = try? JSONDecoder().decode([String: String].self, from: data)
        else { return [:] }
        return tokens
    }

    private func save(_ tokens: [String: String]) throws(TokenStoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(tokens)
        } catch {
            throw TokenStoreError("Cannot encode the token file: \(error.localizedDescription)")
        }
        let temporary = "\(path).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw TokenStoreError("Cannot write \(temporary): \(Self.errnoText()).") }
        fchmod(fd, 0o600)
        let written = data.withUnsafeBytes { buffer in
            buffer.baseAddress.map { write(fd, $0, buffer.count) } ?? 0
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == data.count, synced, rename(temporary, path) == 0 else {
            let why = Self.errnoText()
            unlink(temporary)
            throw TokenStoreError("Cannot write \(path): \(why).")
        }
    }

    private func withLock(_ body: () throws(TokenStoreError) -> Void) throws(TokenStoreError) {
        let lockPath = "\(path).lock"
        let fd = open(lockPath, O_RDWR | O_CREAT, 0o600)
        guard fd >= 0 else { throw TokenStoreError("Cannot open \(lockPath): \(Self.errnoText()).") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw TokenStoreError("Cannot lock \(lockPath): \(Self.errnoText()).") }
        }
        defer { flock(fd, LOCK_UN) }
        try body()
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
