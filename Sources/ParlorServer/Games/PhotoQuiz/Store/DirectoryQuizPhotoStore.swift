import Foundation
import NIOPosix
import ParlorRules

/// Photos as files under a directory (`<data-dir>/photos`): one directory per quiz, one file per photo
/// (`<quiz>/<photo>.pqp`, a `PhotoPack`). A photo is written to a temporary name, flushed to the disk
/// and renamed, so a crash leaves either the whole photo or none. Every file operation runs on NIO's
/// shared thread pool, never on an event loop or an actor's thread.
final class DirectoryQuizPhotoStore: PackedQuizPhotoStore {
    let directory: String
    private let pool: NIOThreadPool

    /// Creates the directory if it is missing; fails (at start-up) when it cannot.
    init(directory: String, pool: NIOThreadPool = .singleton) throws(StoreError) {
        self.directory = directory
        self.pool = pool
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError(.unavailable, "The photo directory \(directory) cannot be created: \(error.localizedDescription)")
        }
    }

    func save(_ files: QuizPhotoFiles, quiz: String, photo: String) async throws(StoreError) {
        try QuizPhotoID.check(quiz)
        try QuizPhotoID.check(photo)
        let pack = try PhotoPack.encode(files)
        let folder = "\(directory)/\(quiz)"
        let path = "\(folder)/\(photo).pqp"
        try await run("Saving photo \(photo) of quiz \(quiz)") {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let temporary = "\(folder)/.\(photo).partial"
            guard FileManager.default.createFile(atPath: temporary, contents: nil) else {
                throw StoreError(.unavailable, "\(temporary) cannot be created")
            }
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
            do {
                try handle.write(contentsOf: pack)
                try handle.synchronize()
                try handle.close()
            } catch {
                try? handle.close()
                try? FileManager.default.removeItem(atPath: temporary)
                throw error
            }
            guard rename(temporary, path) == 0 else { throw StoreError(.unavailable, "\(temporary) cannot be renamed: errno \(errno)") }
            Self.synchronizeDirectory(folder)
        }
    }

    func removePhoto(quiz: String, photo: String) async throws(StoreError) {
        try QuizPhotoID.check(quiz)
        try QuizPhotoID.check(photo)
        let path = "\(directory)/\(quiz)/\(photo).pqp"
        try await run("Removing photo \(photo) of quiz \(quiz)") { try Self.remove(path) }
    }

    func removeQuiz(_ quiz: String) async throws(StoreError) {
        try QuizPhotoID.check(quiz)
        let path = "\(directory)/\(quiz)"
        try await run("Removing the photos of quiz \(quiz)") { try Self.remove(path) }
    }

    func quizzes() async throws(StoreError) -> [String] {
        let directory = directory
        return try await run("Listing \(directory)") {
            try FileManager.default.contentsOfDirectory(atPath: directory).filter { !$0.hasPrefix(".") }
        }
    }

    // MARK: Files

    /// Part `index` of a photo's pack: the header, then the part, two reads at their offsets.
    func part(_ index: Int, quiz: String, photo: String) async throws(StoreError) -> [UInt8]? {
        try QuizPhotoID.check(quiz)
        try QuizPhotoID.check(photo)
        let path = "\(directory)/\(quiz)/\(photo).pqp"
        return try await run("Reading photo \(photo) of quiz \(quiz)") { () throws -> [UInt8]? in
            guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
            defer { try? handle.close() }
            let size = Int(try handle.seekToEnd())
            try handle.seek(toOffset: 0)
            let header = Array(try handle.read(upToCount: PhotoPack.headerSize(through: index)) ?? Data())
            guard let range = PhotoPack.location(ofPart: index, header: header, fileSize: size) else {
                throw StoreError(.corrupt, "\(path) is not a whole photo")
            }
            try handle.seek(toOffset: UInt64(range.lowerBound))
            let bytes = Array(try handle.read(upToCount: range.count) ?? Data())
            guard bytes.count == range.count else { throw StoreError(.corrupt, "\(path) ends early") }
            return bytes
        }
    }

    private static func remove(_ path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        try FileManager.default.removeItem(atPath: path)
    }

    /// Makes a rename in `folder` durable.
    private static func synchronizeDirectory(_ folder: String) {
        let descriptor = open(folder, O_RDONLY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private func run<T: Sendable>(_ doing: String, _ body: @escaping @Sendable () throws -> T) async throws(StoreError) -> T {
        do {
            return try await pool.runIfActive(body)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.unavailable, "\(doing) in \(directory): \(error.localizedDescription)")
        }
    }
}
