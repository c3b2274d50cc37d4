import Foundation
import NIOConcurrencyHelpers

/// The real `parlor-server` executable, started as a child process on port 0 for one test.
final class ServerProcess: Sendable {
    let port: Int
    let dataDirectory: String
    private let process: Process
    private let logFile: URL

    /// The directory holding the built executables (next to this test binary).
    static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// Starts the server and waits (up to 60 s) for its "listening on HOST:PORT" line.
    static func start(_ extraArguments: [String] = [], dataDirectory: String? = nil) async throws -> ServerProcess {
        let directory = dataDirectory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("parlor-e2e-\(UUID().uuidString)").path
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent("parlor-server")
        process.arguments = ["--port", "0", "--data-dir", directory, "--log-level", "warning"] + extraArguments
        let stdout = Pipe()
        let logFile = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-server-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: logFile.path, contents: nil)
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: logFile)
        let output = NIOLockedValueBox("")
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if !data.isEmpty { output.withLockedValue { $0 += String(decoding: data, as: UTF8.self) } }
        }
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let port = output.withLockedValue({ Self.port(in: $0) }) {
                return ServerProcess(port: port, dataDirectory: directory, process: process, logFile: logFile)
            }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate()
        let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        throw ServerDidNotStart(log: log)
    }

    private init(port: Int, dataDirectory: String, process: Process, logFile: URL) {
        self.port = port
        self.dataDirectory = dataDirectory
        self.process = process
        self.logFile = logFile
    }

    private static func port(in output: String) -> Int? {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
            let colon = line.lastIndex(of: ":")
        else { return nil }
        return Int(line[line.index(after: colon)...])
    }

    var url: String { "ws://127.0.0.1:\(port)/ws" }
    var isRunning: Bool { process.isRunning }
    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Sends a signal (SIGTERM by default) and waits for the process to exit; returns its status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM, timeout: Duration = .seconds(30)) async -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

struct ServerDidNotStart: Error, CustomStringConvertible {
    let log: String
    var description: String { "parlor-server did not start:\n\(log)" }
}

/// Runs a script from this target's `Scripts` resources and returns its status and output.
enum ScriptRunner {
    static func run(_ executable: String, _ script: String, arguments: [String], timeout: Duration = .seconds(120)) async throws -> (status: Int32, output: String) {
        guard let scripts = Bundle.module.url(forResource: "Scripts", withExtension: nil) else {
            throw ScriptMissing(name: script)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable, scripts.appendingPathComponent(script).path] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let collected = NIOLockedValueBox(Data())
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            collected.withLockedValue { $0.append(data) }
        }
        try process.run()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        output.fileHandleForReading.readabilityHandler = nil
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        let text = collected.withLockedValue { String(decoding: $0 + rest, as: UTF8.self) }
        return (process.terminationStatus, text)
    }
}

struct ScriptMissing: Error {
    let name: String
}
