import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a child process did not do what a test waited for.
struct ProcessTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The executables SwiftPM built next to the test bundle (`.build/debug/parlor`, …).
enum BuiltProducts {
    static let directory: URL = {
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path).deletingLastPathComponent()
        }
        #endif
        return Bundle.main.bundleURL.deletingLastPathComponent()
    }()

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }
}

/// Text a child process wrote, collected as it arrives.
final class CollectedOutput: Sendable {
    private let text = Mutex("")
    private let ended = Mutex(false)

    func append(_ bytes: ArraySlice<UInt8>) {
        text.withLock { $0 += String(decoding: bytes, as: UTF8.self) }
    }

    /// The writing end is closed: `value` is all there will be.
    func end() { ended.withLock { $0 = true } }

    var value: String { text.withLock { $0 } }
    var isComplete: Bool { ended.withLock { $0 } }
}

/// A child process with its stdin writable and its stdout and stderr collected line by line. Every wait
/// is bounded; `stop()` always ends it (SIGTERM, then SIGKILL).
///
/// Started with `posix_spawn` rather than Foundation's `Process`: the test runner's threads block most
/// signals, and a child started from one inherits that mask — a server that never sees SIGTERM, a tmux
/// that cannot be stopped. Here every child starts with no signal blocked and default handlers.
final class ChildProcess: Sendable {
    let name: String
    let pid: pid_t
    private let input: Mutex<Int32?>
    private let stdoutText = CollectedOutput()
    private let stderrText = CollectedOutput()
    private let exitStatus = Mutex<Int32?>(nil)

    /// A product built next to the tests (`parlor`, `parlor-server`).
    convenience init(_ product: String, _ arguments: [String], environment: [String: String] = [:], name: String? = nil) throws {
        try self.init(executable: BuiltProducts.url(product).path, arguments, environment: environment, name: name ?? product)
    }

    init(executable: String, _ arguments: [String], environment: [String: String] = [:], name: String) throws {
        Self.ignoreBrokenPipes
        self.name = name
        var stdinPipe: [Int32] = [-1, -1]
        var stdoutPipe: [Int32] = [-1, -1]
        var stderrPipe: [Int32] = [-1, -1]
        guard Self.makePipe(&stdinPipe), Self.makePipe(&stdoutPipe), Self.makePipe(&stderrPipe) else {
            throw ProcessTestError("cannot create pipes for \(name)")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], STDERR_FILENO)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { _, new in new }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        for fd in [stdinPipe[0], stdoutPipe[1], stderrPipe[1]] { close(fd) }
        guard spawned == 0 else {
            for fd in [stdinPipe[1], stdoutPipe[0], stderrPipe[0]] { close(fd) }
            throw ProcessTestError("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
        input = Mutex(stdinPipe[1])
        Self.collect(stdoutPipe[0], into: stdoutText)
        Self.collect(stderrPipe[0], into: stderrText)
    }

    /// A pipe whose ends other children do not inherit (only the dup2'd copies are).
    private static func makePipe(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// SIGPIPE would end the test run when a child that exited is written to.
    private static let ignoreBrokenPipes: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()

    private static func collect(_ fd: Int32, into output: CollectedOutput) {
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { raw -> Int in
                    guard let base = raw.baseAddress else { return 0 }
                    return read(fd, base, raw.count)
                }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                output.append(buffer[0..<count])
            }
            close(fd)
            output.end()
        }
        thread.start()
    }

    /// Complete lines written to stdout so far.
    var lines: [String] {
        let text = stdoutText.value
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()  // the part after the last newline is not a line yet
        return lines
    }

    var standardOutput: String { stdoutText.value }
    var standardError: String { stderrText.value }

    var isRunning: Bool { status == nil }

    /// The exit status once the process has exited (128 + n for signal n).
    var status: Int32? {
        exitStatus.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return nil }
            let signal = raw & 0x7F
            status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
            return status
        }
    }

    /// Writes one line to the child's stdin.
    func send(_ line: String) {
        input.withLock { fd in
            guard let fd else { return }
            var bytes = Array((line + "\n").utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { raw -> Int in
                    guard let base = raw.baseAddress else { return -1 }
                    return write(fd, base + offset, raw.count - offset)
                }
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }

    func closeInput() {
        input.withLock { fd in
            if let open = fd { close(open) }
            fd = nil
        }
    }

    /// The first stdout line (from `start` on) that satisfies `predicate`, waiting up to `timeout`.
    func waitForLine(
        after start: Int = 0, timeout: Duration = .seconds(20), _ what: String, where predicate: (String) -> Bool
    ) async throws -> (index: Int, line: String) {
        let deadline = ContinuousClock.now + timeout
        while true {
            let exited = !isRunning
            let current = lines
            if current.count > start, let index = current[start...].firstIndex(where: predicate) {
                return (index, current[index])
            }
            guard ContinuousClock.now < deadline else {
                throw ProcessTestError("\(name) did not print \(what) within \(timeout).\nstdout:\n\(current.joined(separator: "\n"))\nstderr:\n\(standardError)")
            }
            if exited {
                try await Task.sleep(for: .milliseconds(100))
                if let index = lines[min(start, lines.count)...].firstIndex(where: predicate) { return (index, lines[index]) }
                throw ProcessTestError("\(name) exited (\(status ?? -1)) before printing \(what).\nstdout:\n\(standardOutput)\nstderr:\n\(standardError)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The exit status, waiting up to `timeout`; nil if it is still running then. Once it has exited,
    /// this also waits (briefly) for the rest of its output to be read from the pipes: under load a
    /// test that read `standardError` straight after the exit saw only its first byte.
    func waitForExit(timeout: Duration = .seconds(10)) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let status {
                _ = await waitForOutput(timeout: .seconds(5))
                return status
            }
            guard ContinuousClock.now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits up to `timeout` until stdout and stderr are read to their end; false if they are not by
    /// then. A process can exit before its last output has been read from the pipe: read
    /// `standardOutput` after this, not only after `waitForExit`.
    func waitForOutput(timeout: Duration = .seconds(5)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !(stdoutText.isComplete && stderrText.isComplete) {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// Ends the process: SIGTERM, and SIGKILL if it has not exited within `grace`.
    func stop(grace: Duration = .seconds(3)) async {
        closeInput()
        guard isRunning else { return }
        kill(pid, SIGTERM)
        if await waitForExit(timeout: grace) == nil {
            kill(pid, SIGKILL)
            _ = await waitForExit(timeout: .seconds(5))
        }
    }
}

/// `parlor-server` on 127.0.0.1, for the duration of a test.
struct TerminalServer {
    let process: ChildProcess
    let port: Int

    var url: String { "ws://127.0.0.1:\(port)" }

    /// Starts the server and waits for `listening on HOST:PORT`.
    static func start(port: Int = 0, extraArguments: [String] = ["--no-persist"]) async throws -> TerminalServer {
        let process = try ChildProcess(
            "parlor-server", ["--port", String(port), "--log-level", "warning"] + extraArguments, name: "parlor-server")
        do {
            let (_, line) = try await process.waitForLine(timeout: .seconds(60), "listening on HOST:PORT") {
                $0.hasPrefix("listening on ")
            }
            guard let portText = line.split(separator: ":").last, let bound = Int(portText) else {
                throw ProcessTestError("parlor-server printed \"\(line)\", which names no port")
            }
            return TerminalServer(process: process, port: bound)
        } catch {
            await process.stop()
            throw error
        }
    }

    /// Starts on a port below Linux's ephemeral range (32768–60999), so that no listener on port 0 — a
    /// test running meanwhile — can take the port while a restart test has the server stopped.
    static func startRestartable(extraArguments: [String]) async throws -> TerminalServer {
        var lastError: (any Error)?
        for _ in 0..<10 {
            do {
                return try await start(port: Int.random(in: 20_000..<30_000), extraArguments: extraArguments)
            } catch {
                lastError = error
            }
        }
        throw lastError ?? ProcessTestError("no free port for parlor-server")
    }

    /// Runs `body` with a server, which is stopped afterwards whatever happens.
    static func with<R>(extraArguments: [String] = ["--no-persist"], _ body: (TerminalServer) async throws -> R) async throws -> R {
        let server = try await start(extraArguments: extraArguments)
        do {
            let result = try await body(server)
            await server.process.stop()
            return result
        } catch {
            await server.process.stop()
            throw error
        }
    }
}

/// A fresh directory for one `parlor` identity (its XDG_CONFIG_HOME), removed by `remove()`.
struct ScratchDirectory {
    let url: URL

    init(_ label: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-e2e-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var path: String { url.path }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
