import Foundation
import ParlorTestSupport
import Testing

/// `parlor-server backup` and `restore` against the real server: a backup taken while `parlor-load`
/// plays rooms, restored into a fresh directory and served; damaged archives and a busy directory
/// refused with their exit statuses; a backup killed with SIGKILL midway leaves the live server and
/// its data as they were and no archive, and the next backup to the same file removes what it left.
@Suite(.serialized) struct BackupEndToEndTests {
    private static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("parlor-backup-e2e-\(name)-\(UUID().uuidString)").path
    }

    /// `parlor-server ARGUMENTS`, run to its end: status, stdout, stderr.
    private static func parlorServer(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        let process = try ChildProcess("parlor-server", arguments)
        guard let status = await process.waitForExit(timeout: .seconds(120)), await process.waitForOutput() else {
            await process.stop()
            throw ProcessTestError("parlor-server \(arguments) did not finish:\n\(process.standardError)")
        }
        return (status, process.standardOutput, process.standardError)
    }

    /// The game's version in a reply, wherever the game's view puts it (at the top or one level down).
    private static func version(_ result: [String: Any]?) -> Int? {
        guard let result else { return nil }
        if let version = result["version"] as? Int { return version }
        return result.values.lazy.compactMap { ($0 as? [String: Any])?["version"] as? Int }.first
    }

    private static func json(_ text: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }

    private static func bytes(_ path: String) -> [UInt8]? {
        (try? Data(contentsOf: URL(fileURLWithPath: path))).map(Array.init)
    }

    /// Every file under `directory` but the database's and the server's lock file, by relative path.
    private static func files(under directory: String) -> [String: [UInt8]] {
        var found: [String: [UInt8]] = [:]
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return found }
        for case let relative as String in walker where !relative.hasPrefix("parlor.sqlite") && relative != "parlor.lock" {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory + "/" + relative, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            found[relative] = bytes(directory + "/" + relative)
        }
        return found
    }

    @Test func aBackupTakenUnderLoadRestoresEveryAcknowledgedGameAndTheFiles() async throws {
        let server = try await ServerProcess.start()
        let base = "http://127.0.0.1:\(server.port)"
        let archive = Self.temporaryPath("archive") + ".tar"
        let restored = Self.temporaryPath("restored")
        let report = Self.temporaryPath("load") + ".json"
        defer {
            for path in [server.dataDirectory, archive, restored, report] { try? FileManager.default.removeItem(atPath: path) }
        }

        // A member with an avatar, and a quiz with a photo.
        let jpeg = try await TestPhotos.make(.at(48.8566, 2.3522))
        let jpegPath = Self.temporaryPath("photo") + ".jpg"
        defer { try? FileManager.default.removeItem(atPath: jpegPath) }
        try Data(jpeg).write(to: URL(fileURLWithPath: jpegPath))
        let (member, _, servedAvatar) = try await BackupTestSupport.memberWithAvatar(base: base, jpegPath: jpegPath)

        let (quiz, quizToken): (String, String) = try await server.connect { host in
            let created = try #require(try await host.call("createQuiz", ["playerName": "Ann"]).result)
            let code = try #require((created["quiz"] as? [String: Any])?["code"] as? String)
            let upload = try await curl([
                "-X", "POST", "-H", "Authorization: Bearer \(host.token!)", "-H", "Content-Type: image/jpeg",
                "--data-binary", "@" + jpegPath, base + "/quizzes/\(code)/photos",
            ])
            #expect(upload.status == 201, "\(upload.body)")
            return (code, try #require(host.token))
        }

        // parlor-load plays rooms the whole time; two players of our own play tic-tac-toe beside it and
        // note the last version acknowledged before the backup starts.
        let load = try ChildProcess("parlor-load", [
            "rooms", "--server", server.url, "--rooms", "3", "--players", "3", "--spectators", "1",
            "--interval", "0.2", "--duration", "5", "--setup-timeout", "20", "--seed", "11", "--json", report, "--quiet",
        ])
        let (ticTacToe, acknowledged, tokens): (String, Int, [String]) = try await server.connect { ann in
            try await server.connect { bo in
                let created = try #require(try await ann.call("createTicTacToe", ["playerName": "Ann"]).result)
                let code = try #require((created["ticTacToe"] as? [String: Any])?["code"] as? String)
                #expect(try await bo.call("joinTicTacToe", ["code": code, "playerName": "Bo"]).result != nil)
                // Let the load get going: the backup is to run while rooms change.
                try await Task.sleep(for: .seconds(2))
                _ = try #require(Self.version(try await ann.call("placeMark", ["code": code, "cell": 0]).result))
                let acknowledged = try #require(Self.version(try await bo.call("placeMark", ["code": code, "cell": 4]).result))

                let backup = try ChildProcess("parlor-server", ["backup", "--data-dir", server.dataDirectory, "--to", archive])
                // Changes go on while it runs; the backup may or may not hold them.
                _ = try await ann.call("placeMark", ["code": code, "cell": 1])
                _ = try await bo.call("placeMark", ["code": code, "cell": 5])
                let status = await backup.waitForExit(timeout: .seconds(120))
                _ = await backup.waitForOutput()
                #expect(status == 0, "backup: \(backup.standardOutput)\n\(backup.standardError)")
                #expect(backup.standardOutput.contains("Backed up \(server.dataDirectory) to \(archive): schema "), "\(backup.standardOutput)")
                #expect(backup.standardOutput.contains("games: "), "\(backup.standardOutput)")
                return (code, acknowledged, [try #require(ann.token), try #require(bo.token)])
            }
        }
        let loadStatus = await load.waitForExit(timeout: .seconds(60))
        #expect(loadStatus == 0, "parlor-load: \(load.standardOutput)\n\(load.standardError)")
        let loadReport = try #require(Self.json(String(decoding: try Data(contentsOf: URL(fileURLWithPath: report)), as: UTF8.self)))
        let rooms = try #require(loadReport["rooms"] as? [[String: Any]])
        #expect(rooms.count == 3)
        let liveFiles = Self.files(under: server.dataDirectory)
        await server.stop()

        let restore = try await Self.parlorServer(["restore", archive, "--data-dir", restored])
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(restore.stdout.contains("Restored \(archive) into \(restored): schema "), "\(restore.stdout)")
        // Every avatar and photo is back, byte for byte.
        let restoredFiles = Self.files(under: restored)
        #expect(!liveFiles.isEmpty && restoredFiles == liveFiles, "\(restoredFiles.keys.sorted()) vs \(liveFiles.keys.sorted())")
        #expect(liveFiles.keys.contains { $0.hasPrefix("photos/") && $0.hasSuffix(".pqp") } && liveFiles.keys.contains("avatars/\(member)/me.jpg"), "\(liveFiles.keys.sorted())")

        try await ServerProcess.with(dataDirectory: restored) { again in
            // The tic-tac-toe game at the version acknowledged before the backup began, or a later one.
            try await again.connect(token: tokens[0]) { ann in
                let game = try await ann.call("getTicTacToe", ["code": ticTacToe])
                let version = try #require(Self.version(game.result), "\(game)")
                #expect(version >= acknowledged, "restored at \(version), acknowledged \(acknowledged) before the backup")
                // Every room parlor-load set up (acknowledged before the backup) at a version it reached.
                for room in rooms {
                    let code = try #require(room["code"] as? String)
                    let reply = try await ann.call("getRoom", ["code": code])
                    let version = try #require(Self.version(reply.result), "room \(code): \(reply)")
                    let start = try #require(room["startVersion"] as? Int)
                    let final = try #require(room["finalVersion"] as? Int)
                    #expect(version >= start && version <= final, "room \(code) restored at \(version), load saw \(start)…\(final)")
                }
            }
            try await again.connect(token: quizToken) { host in
                let view = try await host.call("getQuiz", ["code": quiz])
                #expect(view.result != nil, "\(view)")
            }
            let served = try await curl(["http://127.0.0.1:\(again.port)/storage/v1/object/public/avatars/\(member)/me.jpg"])
            #expect(served.status == 200 && served.body == servedAvatar)
        }
    }

    @Test func damagedArchivesABusyDirectoryAndANewerSchemaAreRefusedWithTheirStatuses() async throws {
        let archive = Self.temporaryPath("archive") + ".tar"
        let scratch = Self.temporaryPath("scratch")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let server = try await ServerProcess.start()
        defer {
            for path in [server.dataDirectory, archive, scratch] { try? FileManager.default.removeItem(atPath: path) }
        }
        try await server.connect { ann throws in
            #expect(try await ann.call("createTicTacToe", ["playerName": "Ann"]).result != nil)
        }
        let backup = try await Self.parlorServer(["backup", "--data-dir", server.dataDirectory, "--to", archive])
        #expect(backup.status == 0, "\(backup.stderr)")
        await server.stop()
        let bytes = try #require(Self.bytes(archive))

        var flipped = bytes
        flipped[700] ^= 0x01  // inside the database's contents, after its header
        let cases: [(String, [UInt8], Int32, String)] = [
            ("flipped", flipped, 3, "is damaged: data/parlor.sqlite has SHA-256"),
            ("truncated", Array(bytes.prefix(bytes.count / 2)), 3, "is truncated"),
            ("not-a-backup", Array("hello\n".utf8), 3, "is truncated"),
        ]
        for (name, contents, status, message) in cases {
            let path = scratch + "/\(name).tar"
            try Data(contents).write(to: URL(fileURLWithPath: path))
            let target = scratch + "/\(name)"
            let refused = try await Self.parlorServer(["restore", path, "--data-dir", target])
            #expect(refused.status == status, "\(name): \(refused.stderr)")
            #expect(refused.stderr.contains("parlor-server restore: The archive \(path) ") && refused.stderr.contains(message), "\(name): \(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: target))
        }

        let busy = scratch + "/busy"
        try FileManager.default.createDirectory(atPath: busy, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: busy + "/keep.txt", contents: Data("mine".utf8))
        let notEmpty = try await Self.parlorServer(["restore", archive, "--data-dir", busy])
        #expect(notEmpty.status == 2 && notEmpty.stderr.contains("\(busy) is not empty"), "\(notEmpty.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: busy) == ["keep.txt"])

        // The same data after a newer Parlor migrated it: its schema number past this build's.
        let newerData = scratch + "/newer-data"
        #expect(try await Self.parlorServer(["restore", archive, "--data-dir", newerData]).status == 0)
        let python = try await ExternalProcess.run([
            "python3", "-c", "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('PRAGMA user_version = 99'); db.commit()",
            newerData + "/parlor.sqlite",
        ])
        #expect(python.status == 0, "\(python.stderr)")
        let newerArchive = scratch + "/newer.tar"
        #expect(try await Self.parlorServer(["backup", "--data-dir", newerData, "--to", newerArchive]).status == 0)
        let newer = try await Self.parlorServer(["restore", newerArchive, "--data-dir", scratch + "/from-newer"])
        #expect(newer.status == 4 && newer.stderr.contains("holds a database from a newer Parlor") && newer.stderr.contains("schema 99"), "\(newer.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch + "/from-newer"))
    }

    @Test func aBackupKilledMidwayLeavesTheServerItsDataAndNoArchive() async throws {
        let server = try await ServerProcess.start()
        let out = Self.temporaryPath("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        defer {
            for path in [server.dataDirectory, out] { try? FileManager.default.removeItem(atPath: path) }
        }
        let code: String = try await server.connect { ann in
            let created = try #require(try await ann.call("createTicTacToe", ["playerName": "Ann"]).result)
            return try #require((created["ticTacToe"] as? [String: Any])?["code"] as? String)
        }
        // A large file in the data directory (sparse: no disk used) keeps the backup busy long enough
        // to be killed while it writes the archive.
        try BackupTestSupport.makeSparseFile(server.dataDirectory + "/extra/large.bin", size: 1 << 28)

        let archive = out + "/backup.tar"
        let backup = try ChildProcess("parlor-server", ["backup", "--data-dir", server.dataDirectory, "--to", archive])
        // Killed once its archive has started to grow under the temporary name.
        var partial: String?
        let deadline = ContinuousClock.now + .seconds(60)
        while partial == nil, backup.isRunning, ContinuousClock.now < deadline {
            partial = (try? FileManager.default.contentsOfDirectory(atPath: out))?.first { name in
                name.hasSuffix(".partial") && ((try? FileManager.default.attributesOfItem(atPath: out + "/" + name)[.size] as? Int) ?? 0) > 1 << 20
            }
            if partial == nil { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(partial != nil, "the backup wrote no archive before it ended")
        kill(backup.pid, SIGKILL)
        #expect(await backup.waitForExit(timeout: .seconds(20)) == 128 + SIGKILL)

        #expect(!FileManager.default.fileExists(atPath: archive), "a killed backup left an archive under its name")
        let stale = out + "/" + (partial ?? "")
        #expect(FileManager.default.fileExists(atPath: stale), "kill -9 leaves the temporary file")

        // The next backup to the same file removes it — not one being written (its lock held, here by a
        // stand-in), nor another archive's; and the same for database snapshots a backup killed while
        // copying the database leaves.
        let writing = out + "/.backup.tar.\(UUID().uuidString).partial"
        let otherArchive = out + "/.other.tar.\(UUID().uuidString).partial"
        let staleSnapshot = out + "/.parlor-backup-\(UUID().uuidString).sqlite"
        let copying = out + "/.parlor-backup-\(UUID().uuidString).sqlite"
        for path in [otherArchive, staleSnapshot, staleSnapshot + "-journal"] {
            _ = FileManager.default.createFile(atPath: path, contents: Data("left behind".utf8))
        }
        let holder = try ChildProcess(
            executable: "/usr/bin/env",
            [
                "python3", "-c",
                "import fcntl, sys, time; files = [open(p, 'w') for p in sys.argv[1:]]; [fcntl.flock(f, fcntl.LOCK_EX) for f in files]; print('locked', flush=True); time.sleep(300)",
                writing, copying,
            ], name: "lock holder")
        _ = try await holder.waitForLine(timeout: .seconds(30), "the stand-in's lock") { $0 == "locked" }
        try FileManager.default.removeItem(atPath: server.dataDirectory + "/extra/large.bin")
        let again = try await Self.parlorServer(["backup", "--data-dir", server.dataDirectory, "--to", archive])
        await holder.stop()
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stale), "the killed backup's temporary file is still there")
        #expect(FileManager.default.fileExists(atPath: writing), "a temporary file being written was removed")
        #expect(FileManager.default.fileExists(atPath: otherArchive), "another archive's temporary file was removed")
        #expect(!FileManager.default.fileExists(atPath: staleSnapshot) && !FileManager.default.fileExists(atPath: staleSnapshot + "-journal"))
        #expect(FileManager.default.fileExists(atPath: copying), "a snapshot being made was removed")
        #expect(FileManager.default.fileExists(atPath: archive))
        // The server goes on: it reads the game and takes a change.
        try await server.connect { bo throws in
            #expect(try await bo.call("joinTicTacToe", ["code": code, "playerName": "Bo"]).result != nil)
        }
        #expect(server.isRunning)
        await server.stop()
        let check = try await ExternalProcess.run([
            "python3", "-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA integrity_check').fetchall())",
            server.dataDirectory + "/parlor.sqlite",
        ])
        #expect(check.status == 0 && check.stdout.contains("[('ok',)]"), "\(check.stdout)\(check.stderr)")
        // The data directory holds nothing of the backup's: its snapshot was beside the archive.
        #expect(try FileManager.default.contentsOfDirectory(atPath: server.dataDirectory).allSatisfy { !$0.contains("backup") })
    }
}
