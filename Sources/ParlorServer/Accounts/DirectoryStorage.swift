import Foundation
import NIOPosix

/// Files under a directory (`--data-dir/avatars/{user_id}/{name}`), written so that a crash leaves the
/// old file or the new one, never half of one: the bytes go to a temporary file in the same folder,
/// which is flushed to disk and renamed over the name, and the folder is flushed too — so the file is
/// there after `kill -9` or a power cut once `write` returns. Blocking file work runs on NIO's thread
/// pool, never on the cooperative pool.
///
/// Names reaching here are already checked (`AvatarName`): no separators, no dot files.
final class DirectoryStorage: ObjectStorage {
    let root: String

    init(root: String) {
        self.root = root
    }

    func write(_ bytes: [UInt8], folder: String, name: String) async throws(StoreError) {
        let directory = "\(root)/\(folder)"
        try await run("Saving \(folder)/\(name)") {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let temporary = "\(directory)/.upload-\(UUID().uuidString)"
            try Self.writeDurably(bytes, to: temporary)
            guard rename(temporary, "\(directory)/\(name)") == 0 else {
                let error = Self.posixError("renaming \(temporary)")
                try? FileManager.default.removeItem(atPath: temporary)
                throw error
            }
            try Self.syncDirectory(directory)
        }
    }

    func read(folder: String, name: String) async throws(StoreError) -> [UInt8]? {
        let path = "\(root)/\(folder)/\(name)"
        return try await run("Reading \(folder)/\(name)") {
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        }
    }

    func list(folder: String) async throws(StoreError) -> [String] {
        let directory = "\(root)/\(folder)"
        return try await run("Listing \(folder)") {
            guard FileManager.default.fileExists(atPath: directory) else { return [] }
            return try FileManager.default.contentsOfDirectory(atPath: directory).filter { !$0.hasPrefix(".") }
        }
    }

    func remove(folder: String, name: String) async throws(StoreError) {
        let (root, directory) = (root, "\(root)/\(folder)")
        try await run("Removing \(folder)/\(name)") {
            let path = "\(directory)/\(name)"
            guard FileManager.default.fileExists(atPath: path) else { return }
            try FileManager.default.removeItem(atPath: path)
            try Self.syncDirectory(directory)
            // An empty folder goes too, as in memory: its name is the user's id (a deleted account leaves none).
            if (try? FileManager.default.contentsOfDirectory(atPath: directory))?.isEmpty == true {
                try FileManager.default.removeItem(atPath: directory)
                try Self.syncDirectory(root)
            }
        }
    }

    // MARK: Plumbing

    private func run<T: Sendable>(_ doing: String, _ body: @escaping @Sendable () throws -> T) async throws(StoreError) -> T {
        do {
            return try await NIOThreadPool.singleton.runIfActive(body)
        } catch {
            let reason = (error as NSError).code == Int(ENOSPC) ? "the disk is full" : "\(error)"
            throw StoreError(
                (error as NSError).code == Int(ENOSPC) ? .diskFull : .unavailable,
                "\(doing) under \(root) failed: \(reason). Check that the data directory is writable and has room.")
        }
    }

    private static func writeDurably(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw posixError("creating \(path)") }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return Foundation.write(descriptor, base + written, buffer.count - written)
            }
            guard count > 0 else { throw posixError("writing \(path)") }
            written += count
        }
        guard fsync(descriptor) == 0 else { throw posixError("flushing \(path)") }
    }

    private static func syncDirectory(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw posixError("opening \(path)") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw posixError("flushing \(path)") }
    }

    private static func posixError(_ doing: String) -> NSError {
        let code = errno
        return NSError(domain: NSPOSIXErrorDomain, code: Int(code), userInfo: [NSLocalizedDescriptionKey: "\(doing): \(String(cString: strerror(code)))"])
    }
}
