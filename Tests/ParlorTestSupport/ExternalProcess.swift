import Foundation

/// Runs a command-line peer (`openssl`, `python3`) with its output in files, so that nothing blocks on a full pipe.
public final class ExternalProcess: @unchecked Sendable {
    // @unchecked: `process` is only started here and then only queried (isRunning, terminationStatus, terminate),
    // which Foundation allows from any thread; the file paths are immutable.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    private let process = Process()
    private let stdoutPath: String
    private let stderrPath: String
    private let stdinPath: String
    private let input: Pipe?

    /// Starts `arguments` (looked up on PATH), with `stdin` as its standard input (empty when nil), or, when
    /// `interactive`, a pipe that `send(_:)` writes to and `closeInput()` ends.
    public init(_ arguments: [String], directory: String? = nil, stdin: Data? = nil, interactive: Bool = false) throws {
        let base = NSTemporaryDirectory() + "parlor-tls-proc-" + UUID().uuidString
        stdoutPath = base + ".out"
        stderrPath = base + ".err"
        stdinPath = base + ".in"
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stdinPath, contents: stdin ?? Data())
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if interactive {
            let pipe = Pipe()
            input = pipe
            process.standardInput = pipe
        } else {
            input = nil
            process.standardInput = FileHandle(forReadingAtPath: stdinPath)
        }
        process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        try process.run()
    }

    deinit {
        terminate()
        for path in [stdoutPath, stderrPath, stdinPath] { try? FileManager.default.removeItem(atPath: path) }
    }

    public var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Waits (without blocking a thread) for the process to exit; terminates it and throws after `timeout`.
    public func wait(timeout: Duration = .seconds(30)) async throws -> Result {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while process.isRunning {
            if clock.now > deadline {
                process.terminate()
                throw TestFailure("\(process.arguments ?? []) did not exit within \(timeout); stderr: \(stderr)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return Result(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    /// Writes `text` to the standard input of an interactive process.
    public func send(_ text: String) throws {
        try input?.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    /// Ends the standard input of an interactive process.
    public func closeInput() throws {
        try input?.fileHandleForWriting.close()
    }

    /// Polls until `condition` holds for (stdout, stderr); throws after `timeout`.
    public func waitForOutput(
        _ what: String, timeout: Duration = .seconds(15), _ condition: (String, String) -> Bool
    ) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while !condition(stdout, stderr) {
            if clock.now > deadline {
                terminate()
                throw TestFailure("timed out waiting for \(what); stdout: \(stdout)\nstderr: \(stderr)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    public func terminate() {
        if process.isRunning { process.terminate() }
    }

    /// Runs a command to completion.
    public static func run(
        _ arguments: [String], directory: String? = nil, stdin: Data? = nil, timeout: Duration = .seconds(30)
    ) async throws -> Result {
        try await ExternalProcess(arguments, directory: directory, stdin: stdin).wait(timeout: timeout)
    }

    /// Runs a command to completion, blocking the calling thread (for one-time set-up only).
    public static func runBlocking(_ arguments: [String], directory: String? = nil) throws -> Result {
        let running = try ExternalProcess(arguments, directory: directory)
        running.process.waitUntilExit()
        return Result(status: running.process.terminationStatus, stdout: running.stdout, stderr: running.stderr)
    }
}
