import Foundation
import ParlorTestSupport
import Testing

/// `GET /admin/backup` against the real server: the admin token required; the archive streamed at the
/// reader's pace without the server holding it; one at a time; and what it streamed restores.
@Suite(.serialized) struct AdminBackupTests {
    private static let token = "backup-operator-token"

    private static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("parlor-admin-backup-\(name)-\(UUID().uuidString)").path
    }

    private static func size(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// The process's resident memory, in bytes (`VmRSS`).
    private static func residentBytes(_ pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }

    @Test func anOperatorStreamsTheArchiveOneAtATimeAndItRestores() async throws {
        let server = try await ServerProcess.start(["--admin-token", Self.token])
        let base = "http://127.0.0.1:\(server.port)"
        let slowPath = Self.temporaryPath("slow") + ".tar"
        let fullPath = Self.temporaryPath("full") + ".tar"
        let restored = Self.temporaryPath("restored")
        defer {
            for path in [server.dataDirectory, slowPath, fullPath, restored] { try? FileManager.default.removeItem(atPath: path) }
        }
        let (code, ann): (String, String) = try await server.connect { ann in
            let created = try #require(try await ann.call("createTicTacToe", ["playerName": "Ann"]).result)
            return (try #require((created["ticTacToe"] as? [String: Any])?["code"] as? String), try #require(ann.token))
        }

        let anonymous = try await curl([base + "/admin/backup"])
        #expect(anonymous.status == 401 && anonymous.body.contains("UNAUTHENTICATED"), "\(anonymous)")
        let wrong = try await curl(["-H", "Authorization: Bearer \(ann)", base + "/admin/backup"])
        #expect(wrong.status == 401)

        // 256 MiB (sparse) to stream: a reader at 4 MB/s holds the backup for a minute.
        let large = server.dataDirectory + "/extra/large.bin"
        try BackupTestSupport.makeSparseFile(large, size: 1 << 28)
        let before = Self.residentBytes(server.process.pid)
        let slow = try ChildProcess(
            executable: "/usr/bin/env",
            ["curl", "-s", "--limit-rate", "4M", "-o", slowPath, "-H", "Authorization: Bearer \(Self.token)", base + "/admin/backup"], name: "curl")
        let deadline = ContinuousClock.now + .seconds(60)
        while Self.size(slowPath) < 8 << 20, slow.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(Self.size(slowPath) >= 8 << 20 && slow.isRunning, "the slow download did not get going")
        // The server holds what the socket does, not the archive: well under the 256 MiB still to send.
        let growth = Self.residentBytes(server.process.pid) - before
        #expect(growth < 64 << 20, "the server's memory grew by \(growth) bytes while streaming")

        let second = try await curl(["-H", "Authorization: Bearer \(Self.token)", base + "/admin/backup"])
        #expect(second.status == 409 && second.body.contains("BACKUP_IN_PROGRESS"), "\(second.status) \(second.body.prefix(300))")
        // The server serves meanwhile.
        try await server.connect(token: ann) { client throws in
            #expect(try await client.call("getTicTacToe", ["code": code]).result != nil)
        }

        // The slow reader goes away: its backup ends, and the next one may start.
        kill(slow.pid, SIGKILL)
        _ = await slow.waitForExit(timeout: .seconds(10))
        try FileManager.default.removeItem(atPath: large)
        var status: Int32 = -1
        let retryUntil = ContinuousClock.now + .seconds(30)
        repeat {
            let full = try ChildProcess(
                executable: "/usr/bin/env",
                ["curl", "-s", "-f", "-o", fullPath, "-H", "Authorization: Bearer \(Self.token)", base + "/admin/backup"], name: "curl")
            status = await full.waitForExit(timeout: .seconds(60)) ?? -1
            if status != 0 { try await Task.sleep(for: .milliseconds(200)) }
        } while status != 0 && ContinuousClock.now < retryUntil
        #expect(status == 0, "the backup after the abandoned one was refused")
        await server.stop()

        let restore = try ChildProcess("parlor-server", ["restore", fullPath, "--data-dir", restored])
        #expect(await restore.waitForExit(timeout: .seconds(60)) == 0, "\(restore.standardError)")
        try await ServerProcess.with(dataDirectory: restored) { again in
            try await again.connect(token: ann) { client throws in
                #expect(try await client.call("getTicTacToe", ["code": code]).result != nil)
            }
        }
    }

    /// SIGTERM while an operator streams a backup: the stream has the shutdown grace to finish, as any
    /// request; this one (256 MiB to a slow reader) cannot, and is cut. The chunked body is never
    /// terminated, so the client knows its copy is incomplete (curl: 18, "transfer closed with
    /// outstanding read data remaining") and `restore` refuses it; the server exits cleanly and leaves
    /// no snapshot in its temporary directory.
    @Test func aStreamCutByShutdownEndsUnterminatedAndLeavesNoSnapshot() async throws {
        let scratch = Self.temporaryPath("tmp")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let server = try await ServerProcess.start(["--admin-token", Self.token, "--shutdown-grace", "1"], environment: ["TMPDIR": scratch])
        let cut = Self.temporaryPath("cut") + ".tar"
        let restored = Self.temporaryPath("restored")
        defer {
            for path in [server.dataDirectory, scratch, cut, restored] { try? FileManager.default.removeItem(atPath: path) }
        }
        try BackupTestSupport.makeSparseFile(server.dataDirectory + "/extra/large.bin", size: 1 << 28)
        let slow = try ChildProcess(
            executable: "/usr/bin/env",
            ["curl", "-s", "--limit-rate", "4M", "-o", cut, "-H", "Authorization: Bearer \(Self.token)", "http://127.0.0.1:\(server.port)/admin/backup"],
            name: "curl")
        let deadline = ContinuousClock.now + .seconds(60)
        while Self.size(cut) < 4 << 20, slow.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(Self.size(cut) >= 4 << 20 && slow.isRunning, "the download did not get going")

        #expect(await server.stop() == 0, "\(server.log)")
        let status = await slow.waitForExit(timeout: .seconds(30))
        #expect(status == 18, "curl saw the archive end unterminated: \(String(describing: status)) \(slow.standardError)")
        #expect(Self.size(cut) < 1 << 28)
        let restore = try ChildProcess("parlor-server", ["restore", cut, "--data-dir", restored])
        #expect(await restore.waitForExit(timeout: .seconds(60)) == 3, "refused as damaged: \(restore.standardError)")
        #expect(!FileManager.default.fileExists(atPath: restored))
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch)
        #expect(left.isEmpty, "the server left in its temporary directory: \(left)")
    }

    /// SIGTERM while the backup still copies the database (`VACUUM INTO` of 256 MiB, no grace): the
    /// copy is interrupted and its snapshot removed before the server exits; the client gets a body
    /// that never ends.
    @Test func aShutdownDuringTheDatabaseCopyLeavesNoSnapshot() async throws {
        let scratch = Self.temporaryPath("tmp")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let first = try await ServerProcess.start()
        await first.stop()
        defer {
            for path in [first.dataDirectory, scratch] { try? FileManager.default.removeItem(atPath: path) }
        }
        let filler = try await ExternalProcess.run([
            "python3", "-c",
            "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('CREATE TABLE filler (bytes BLOB)'); [db.execute('INSERT INTO filler VALUES (randomblob(1048576))') for _ in range(256)]; db.commit()",
            first.dataDirectory + "/parlor.sqlite",
        ])
        #expect(filler.status == 0, "\(filler.stderr)")
        let server = try await ServerProcess.start(
            ["--admin-token", Self.token, "--shutdown-grace", "0"], dataDirectory: first.dataDirectory, environment: ["TMPDIR": scratch])
        let download = try ChildProcess(
            executable: "/usr/bin/env",
            ["curl", "-s", "-o", "/dev/null", "-H", "Authorization: Bearer \(Self.token)", "http://127.0.0.1:\(server.port)/admin/backup"],
            name: "curl")
        var copying = false
        let deadline = ContinuousClock.now + .seconds(60)
        while !copying, download.isRunning, ContinuousClock.now < deadline {
            copying = ((try? FileManager.default.contentsOfDirectory(atPath: scratch)) ?? []).contains { $0.hasPrefix(".parlor-backup-") }
            if !copying { try await Task.sleep(for: .milliseconds(2)) }
        }
        #expect(copying, "the backup's database copy was not seen in \(scratch)")

        #expect(await server.stop() == 0, "\(server.log)")
        #expect(await download.waitForExit(timeout: .seconds(30)) == 18, "\(download.standardError)")
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch)
        #expect(left.isEmpty, "the server left in its temporary directory: \(left)")
    }
}
