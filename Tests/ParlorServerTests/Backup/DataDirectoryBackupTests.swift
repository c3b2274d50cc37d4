import Foundation
import ParlorSQLite
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// `DataDirectoryBackup` and `DataDirectoryRestore` on a data directory of the SQLite store's, with
/// files beside it: what goes in comes back, and what is refused is refused before anything is written.
@Suite struct DataDirectoryBackupTests {
    /// A data directory with two rooms saved, an avatar, a quiz photo, a file being written (a dot file)
    /// and the server's lock file.
    private func makeDataDirectory(_ directory: String) async throws {
        let store = try SQLiteStore(directory: directory, configuration: StoreFixtures.configuration)
        for room in try Self.rooms() { try await store.saveRoom(room) }
        await store.close()
        try write(Array("avatar bytes".utf8), to: directory + "/avatars/\(StoreFixtures.user(1))/me.jpg")
        try write((0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) }, to: directory + "/photos/QUIZ1/photo-1.pqp")
        try write(Array("half".utf8), to: directory + "/photos/QUIZ1/.photo-2.partial")
        try write([], to: directory + "/parlor.lock")  // the running server's lock: not data
    }

    private static func rooms() throws -> [RummyRoom] {
        [
            try StoreFixtures.room(StoreFixtures.code(1), players: [StoreFixtures.user(1)]),
            try StoreFixtures.room(StoreFixtures.code(2), players: [StoreFixtures.user(2)]),
        ]
    }

    private func write(_ bytes: [UInt8], to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    private func read(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private func refusal(_ archive: String, into destination: String) -> BackupError? {
        do {
            _ = try DataDirectoryRestore.restore(archive: archive, into: destination)
            return nil
        } catch {
            return error
        }
    }

    @Test func aRestoredDirectoryHoldsTheDatabaseAndEveryFileButTheOnesBeingWritten() async throws {
        try await withTemporaryDirectory { root in
            let data = root + "/data"
            try await makeDataDirectory(data)
            let archive = root + "/backup.tar"
            let manifest = try DataDirectoryBackup.write(dataDirectory: data, to: archive)
            #expect(manifest.schemaVersion == SQLiteSchema.supportedVersion)
            #expect(manifest.tables["games"] == 2)
            #expect(manifest.files.map(\.path) == [
                "data/parlor.sqlite", "data/avatars/\(StoreFixtures.user(1))/me.jpg", "data/photos/QUIZ1/photo-1.pqp",
            ])
            #expect(manifest.files[1].size == 12 && manifest.files[1].sha256 == "567d863a804999d8a5b601b68553aa0ef28741f9b363623db395759b54e9cfdc")  // sha256sum of "avatar bytes"
            // Nothing but the archive is left beside it (no snapshot, no temporary file).
            #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["backup.tar", "data"])
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: archive)[.posixPermissions] as? Int)
            #expect(mode == 0o600)

            let restored = root + "/restored"
            let back = try DataDirectoryRestore.restore(archive: archive, into: restored)
            #expect(back == manifest)
            #expect(try read(restored + "/avatars/\(StoreFixtures.user(1))/me.jpg") == Array("avatar bytes".utf8))
            #expect(try read(restored + "/photos/QUIZ1/photo-1.pqp") == read(data + "/photos/QUIZ1/photo-1.pqp"))
            #expect(!FileManager.default.fileExists(atPath: restored + "/photos/QUIZ1/.photo-2.partial"))
            let store = try SQLiteStore(directory: restored, configuration: StoreFixtures.configuration)
            let loaded = try await store.loadRooms()
            let saved = try Self.rooms()
            #expect(loaded.count == 2 && saved.allSatisfy { loaded.contains($0) })
            await store.close()
            // Only the restored directory and the archive: the temporary folder was renamed, not copied.
            #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["backup.tar", "data", "restored"])
        }
    }

    @Test func systemTarListsAndUnpacksTheArchive() async throws {
        try await withTemporaryDirectory { root in
            let data = root + "/data"
            try await makeDataDirectory(data)
            let archive = root + "/backup.tar"
            _ = try DataDirectoryBackup.write(dataDirectory: data, to: archive)
            let listed = try await ExternalProcess.run(["tar", "-tf", archive])
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stdout.split(separator: "\n").map(String.init) == [
                "data/parlor.sqlite", "data/avatars/\(StoreFixtures.user(1))/me.jpg", "data/photos/QUIZ1/photo-1.pqp",
                "manifest.json", "checksum.sha256",
            ])
            let out = root + "/unpacked"
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let unpacked = try await ExternalProcess.run(["tar", "-xf", archive, "-C", out])
            #expect(unpacked.status == 0, "\(unpacked.stderr)")
            #expect(try read(out + "/data/photos/QUIZ1/photo-1.pqp") == read(data + "/photos/QUIZ1/photo-1.pqp"))
            let checksum = try await ExternalProcess.run(["sh", "-c", "head -c $(( $(stat -c %s \(archive)) - 2048 )) \(archive) | sha256sum"])
            // The checksum covers every byte before its own entry: the archive less that entry (one
            // header block and one block of contents) and the two blocks that end it.
            let stored = String(decoding: try read(out + "/checksum.sha256"), as: UTF8.self)
            #expect(checksum.stdout.hasPrefix(stored.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
    }

    @Test func aFlippedByteOrATruncatedArchiveIsRefusedAndNothingIsWritten() async throws {
        try await withTemporaryDirectory { root in
            let data = root + "/data"
            try await makeDataDirectory(data)
            let archive = root + "/backup.tar"
            _ = try DataDirectoryBackup.write(dataDirectory: data, to: archive)
            let bytes = try read(archive)
            // Where the photo's contents start: after its header, which follows the database and the avatar.
            let photoName = Array("data/photos/QUIZ1/photo-1.pqp".utf8)
            let photoHeader = try #require((0..<bytes.count - photoName.count).first { Array(bytes[$0..<$0 + photoName.count]) == photoName })
            let cases: [(String, [UInt8], String)] = [
                ("photo", flipping(bytes, at: photoHeader + TarHeader.blockSize + 1000), "data/photos/QUIZ1/photo-1.pqp has SHA-256"),
                ("header", flipping(bytes, at: photoHeader + 3), "an entry header's checksum does not match its bytes"),
                ("manifest", flipping(bytes, at: bytes.count - 4 * TarHeader.blockSize - 40), "damaged"),
                ("truncated", Array(bytes.prefix(photoHeader + TarHeader.blockSize + 5000)), "is truncated: it ends at byte"),
                ("no end", Array(bytes.prefix(bytes.count - 4 * TarHeader.blockSize)), "is truncated"),
            ]
            for (what, damaged, message) in cases {
                let path = root + "/damaged-\(what).tar"
                try Data(damaged).write(to: URL(fileURLWithPath: path))
                let error = try #require(refusal(path, into: root + "/out-\(what)"), "\(what) was restored")
                #expect(error.kind == .damaged && error.exitStatus == 3, "\(what): \(error)")
                #expect(error.message.contains(message), "\(what): \(error.message)")
                #expect(!FileManager.default.fileExists(atPath: root + "/out-\(what)"), "\(what)")
            }
            // Only the archives and the data: no temporary restore folder was left behind.
            #expect(try FileManager.default.contentsOfDirectory(atPath: root).allSatisfy { !$0.hasPrefix(".") })
        }
    }

    private func flipping(_ bytes: [UInt8], at index: Int) -> [UInt8] {
        var copy = bytes
        copy[index] ^= 0x20
        return copy
    }

    @Test func aNonEmptyDestinationAndANewerSchemaAreRefused() async throws {
        try await withTemporaryDirectory { root in
            let data = root + "/data"
            try await makeDataDirectory(data)
            let archive = root + "/backup.tar"
            _ = try DataDirectoryBackup.write(dataDirectory: data, to: archive)

            let busy = root + "/busy"
            try write(Array("keep me".utf8), to: busy + "/notes.txt")
            let notEmpty = try #require(refusal(archive, into: busy))
            #expect(notEmpty.kind == .destinationNotEmpty && notEmpty.exitStatus == 2)
            #expect(notEmpty.message.contains("\(busy) is not empty") && notEmpty.message.contains("notes.txt"))
            #expect(try read(busy + "/notes.txt") == Array("keep me".utf8))
            let file = root + "/a-file"
            try write([1], to: file)
            #expect(refusal(archive, into: file)?.kind == .destinationNotEmpty)

            // An empty directory is fine.
            let empty = root + "/empty"
            try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
            _ = try DataDirectoryRestore.restore(archive: archive, into: empty)
            #expect(FileManager.default.fileExists(atPath: empty + "/parlor.sqlite"))

            // A database a newer Parlor migrated (its user_version past what this build knows).
            let newer = root + "/newer"
            try await makeDataDirectory(newer)
            try SQLiteFile.write(newer + "/parlor.sqlite") { db in try db.execute(sql: "PRAGMA user_version = \(SQLiteSchema.supportedVersion + 1)") }
            let newerArchive = root + "/newer.tar"
            #expect(try DataDirectoryBackup.write(dataDirectory: newer, to: newerArchive).schemaVersion == SQLiteSchema.supportedVersion + 1)
            let refused = try #require(refusal(newerArchive, into: root + "/from-newer"))
            #expect(refused.kind == .newer && refused.exitStatus == 4)
            #expect(refused.message.contains("schema \(SQLiteSchema.supportedVersion + 1)"), "\(refused.message)")
            #expect(!FileManager.default.fileExists(atPath: root + "/from-newer"))
        }
    }

    @Test func aBackupRefusesAMissingDatabaseAndAnArchiveInsideTheDataDirectory() async throws {
        try await withTemporaryDirectory { root in
            do throws(BackupError) {
                _ = try DataDirectoryBackup.write(dataDirectory: root + "/nothing", to: root + "/backup.tar")
                Issue.record("a directory with no database was backed up")
            } catch {
                #expect(error.message.contains("There is no Parlor database at \(root)/nothing/parlor.sqlite"))
            }
            let data = root + "/data"
            try await makeDataDirectory(data)
            do throws(BackupError) {
                _ = try DataDirectoryBackup.write(dataDirectory: data, to: data + "/avatars/backup.tar")
                Issue.record("an archive inside the data directory was written")
            } catch {
                #expect(error.message.contains("inside the data directory"))
            }
            #expect(!FileManager.default.fileExists(atPath: root + "/backup.tar"))
        }
    }

    @Test func tarHeadersRoundTripLongNamesAndHugeSizes() throws {
        let long = String(repeating: "d", count: 120) + "/" + String(repeating: "f", count: 90)
        for header in [
            TarHeader(name: "data/parlor.sqlite", size: 0, modified: 1_790_000_000),
            TarHeader(name: long, size: 12_345, modified: 1),
            TarHeader(name: "data/big", size: 20 * 1024 * 1024 * 1024, modified: 2),
        ] {
            let block = try #require(header.encoded())
            #expect(block.count == 512)
            #expect(TarHeader.decode(block) == .header(header))
        }
        #expect(TarHeader(name: String(repeating: "x", count: 101), size: 0, modified: 0).encoded() == nil)
        #expect(TarHeader.decode([UInt8](repeating: 0, count: 512)) == .end)
        #expect(TarHeader.padding(after: 0) == 0 && TarHeader.padding(after: 1) == 511 && TarHeader.padding(after: 512) == 0)
    }
}
