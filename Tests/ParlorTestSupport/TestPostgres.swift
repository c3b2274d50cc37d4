import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL server for tests: `initdb` in a temporary directory, a loopback port, run as
/// an unprivileged user (`postgres`, through `runuser`, when the tests run as root, as CI does: initdb
/// refuses root), `fsync` off (tests check behaviour, not power cuts).
///
/// One server per test process, started on first use; each test takes a database of its own
/// (`makeDatabase()`). It is stopped and its directory removed when the test process ends, however it
/// ends: a watchdog shell, started beside it, waits for the test process to go away (a crash, a
/// `kill -9`, a failed `#require`) and then stops the server. `stop()`/`start()` take it down and
/// back up mid-test, for tests of a database that goes away.
///
/// Nil from `shared()` only when no PostgreSQL binaries are installed (`scripts/setup.sh --test`
/// installs Debian's `postgresql`); `unavailableReason` says so, for the skipping suite's message.
public final class TestPostgres: Sendable {
    public let port: Int
    public let user = "parlor"
    public let directory: String
    private let binaries: String
    private let runAs: String?

    /// Why PostgreSQL tests are skipped here, or nil when they run.
    public static let unavailableReason: String? =
        binDirectory() == nil
        ? "PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql/*/bin); `scripts/setup.sh --test` installs it."
        : nil

    /// The server for this test process, started on first call; nil when PostgreSQL is not installed.
    public static func shared() async throws -> TestPostgres? {
        try await SharedServer.instance.server()
    }

    /// A server of the caller's own (for a test that stops and restarts it, which would disturb every
    /// other test on the shared one); stopped when the test process ends, or earlier by `stop()`.
    public static func startDedicated() async throws -> TestPostgres? {
        guard let binaries = binDirectory() else { return nil }
        return try await start(binaries: binaries)
    }

    private actor SharedServer {
        static let instance = SharedServer()
        private var started: Task<TestPostgres?, any Error>?

        func server() async throws -> TestPostgres? {
            if let started { return try await started.value }
            let task = Task { () throws -> TestPostgres? in
                guard let binaries = TestPostgres.binDirectory() else { return nil }
                return try await TestPostgres.start(binaries: binaries)
            }
            started = task
            return try await task.value
        }
    }

    private init(port: Int, directory: String, binaries: String, runAs: String?) {
        self.port = port
        self.directory = directory
        self.binaries = binaries
        self.runAs = runAs
    }

    /// A new, empty database, owned by `user`; its name.
    public func makeDatabase() async throws -> String {
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await psql("CREATE DATABASE \(name)")
        return name
    }

    /// `postgres://parlor@127.0.0.1:<port>/<database>`.
    public func address(_ database: String) -> String { "postgres://\(user)@127.0.0.1:\(port)/\(database)" }

    /// Runs SQL through `psql` on `database`; its standard output (unaligned, tuples only).
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") async throws -> String {
        let result = try await ExternalProcess.run([
            "\(binaries)/psql", "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", "\(port)", "-U", user, "-d", database,
            "-c", sql,
        ])
        guard result.status == 0 else { throw TestFailure("psql \(sql) failed: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The path of one of PostgreSQL's programs (`pg_dump`, `pg_restore`) of the version this server runs.
    public func program(_ name: String) -> String { "\(binaries)/\(name)" }

    /// Stops the server at once (clients see their connections drop), keeping its data.
    public func stop() async throws {
        let result = try await ExternalProcess.run(asUser(["\(binaries)/pg_ctl", "stop", "-D", "\(directory)/data", "-m", "immediate", "-w"]))
        guard result.status == 0 else { throw TestFailure("pg_ctl stop failed: \(result.stderr)") }
    }

    /// Starts the server again on the same port and data after `stop()`.
    public func start() async throws {
        try Self.launch(binaries: binaries, directory: directory, port: port, runAs: runAs)
        try await waitUntilReady(binaries: binaries, port: port)
    }

    // MARK: Starting

    private static func start(binaries: String) async throws -> TestPostgres {
        let runAs = getuid() == 0 ? "postgres" : nil
        let directory = NSTemporaryDirectory() + "parlor-pg-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if let runAs {
            let chown = try await ExternalProcess.run(["chown", "\(runAs):", directory])
            guard chown.status == 0 else {
                throw TestFailure("Cannot hand \(directory) to the \(runAs) user (Debian's postgresql package creates it): \(chown.stderr)")
            }
        }
        let initdb = try await ExternalProcess.run(
            asUser(
                ["\(binaries)/initdb", "-D", "\(directory)/data", "-U", "parlor", "--auth=trust", "--no-locale", "-E", "UTF8", "--no-sync"],
                runAs: runAs),
            timeout: .seconds(120))
        guard initdb.status == 0 else { throw TestFailure("initdb failed: \(initdb.stderr)") }
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = try TestPorts.freeLoopbackPort()
            let server = TestPostgres(port: port, directory: directory, binaries: binaries, runAs: runAs)
            do {
                try launch(binaries: binaries, directory: directory, port: port, runAs: runAs)
                try await server.waitUntilReady(binaries: binaries, port: port)
                return server
            } catch {
                lastError = error  // most likely the port was taken between choosing it and binding it
            }
        }
        throw lastError ?? TestFailure("PostgreSQL did not start")
    }

    /// Starts `postgres` behind a watchdog that stops it, and removes the directory, once this test
    /// process is gone.
    private static func launch(binaries: String, directory: String, port: Int, runAs: String?) throws {
        let postgres = asUser(
            [
                "\(binaries)/postgres", "-D", "\(directory)/data", "-p", "\(port)", "-k", directory, "-c", "listen_addresses=127.0.0.1",
                "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "max_connections=300",
            ], runAs: runAs
        ).map(shellQuoted).joined(separator: " ")
        let parent = ProcessInfo.processInfo.processIdentifier
        let pidFile = "\(directory)/data/postmaster.pid"
        let script = """
            \(postgres) >>\(shellQuoted("\(directory)/server.log")) 2>&1 &
            while kill -0 \(parent) 2>/dev/null; do sleep 1; done
            [ -f \(shellQuoted(pidFile)) ] && kill -QUIT "$(head -1 \(shellQuoted(pidFile)))" 2>/dev/null
            sleep 1
            rm -rf \(shellQuoted(directory))
            """
        let watchdog = Process()
        watchdog.executableURL = URL(fileURLWithPath: "/bin/sh")
        watchdog.arguments = ["-c", script]
        watchdog.standardInput = FileHandle.nullDevice
        watchdog.standardOutput = FileHandle.nullDevice
        watchdog.standardError = FileHandle.nullDevice
        try watchdog.run()
    }

    private func waitUntilReady(binaries: String, port: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let ready = try await ExternalProcess.run(["\(binaries)/pg_isready", "-h", "127.0.0.1", "-p", "\(port)", "-U", user])
            if ready.status == 0 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        let log = (try? String(contentsOfFile: "\(directory)/server.log", encoding: .utf8)) ?? ""
        throw TestFailure("PostgreSQL on port \(port) did not become ready; its log: \(log.suffix(2000))")
    }

    private func asUser(_ arguments: [String]) -> [String] { Self.asUser(arguments, runAs: runAs) }

    private static func asUser(_ arguments: [String], runAs: String?) -> [String] {
        guard let runAs else { return arguments }
        return ["runuser", "-u", runAs, "--"] + arguments
    }

    private static func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// The newest installed PostgreSQL's programs: initdb's directory on PATH, else Debian's layout.
    static func binDirectory() -> String? {
        let fileManager = FileManager.default
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        where fileManager.isExecutableFile(atPath: "\(directory)/initdb") {
            // Debian links some of them into /usr/local/bin or /usr/bin; use the real directory, which has them all.
            let real = URL(fileURLWithPath: "\(directory)/initdb").resolvingSymlinksInPath().deletingLastPathComponent().path
            if fileManager.isExecutableFile(atPath: "\(real)/postgres") { return real }
        }
        let versions = ((try? fileManager.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).compactMap(Int.init).sorted()
        for version in versions.reversed() where fileManager.isExecutableFile(atPath: "/usr/lib/postgresql/\(version)/bin/initdb") {
            return "/usr/lib/postgresql/\(version)/bin"
        }
        return nil
    }
}
