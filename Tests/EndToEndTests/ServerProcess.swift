import Foundation
import ParlorTestSupport
import WebSocketCore

/// The real `parlor-server` executable, started as a child process on port 0 for one test, with its
/// own data directory (unless one is given, to restart on the same data).
final class ServerProcess: Sendable {
    let port: Int
    let dataDirectory: String
    let process: ChildProcess

    /// Starts the server and waits (up to 60 s) for its "listening on HOST:PORT" line. Without
    /// `--places` in `extraArguments` it runs with none: reading GeoNames' places costs a debug build
    /// seconds of CPU that only the photo quiz's tests need.
    static func start(
        _ extraArguments: [String] = [], dataDirectory: String? = nil, environment: [String: String] = [:]
    ) async throws -> ServerProcess {
        let directory = dataDirectory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("parlor-e2e-data-\(UUID().uuidString)").path
        let places = extraArguments.contains("--places") ? [] : ["--places", "none"]
        let process = try ChildProcess(
            "parlor-server", ["--port", "0", "--data-dir", directory, "--log-level", "warning"] + places + extraArguments,
            environment: environment)
        do {
            let (_, line) = try await process.waitForLine(timeout: .seconds(60), "listening on HOST:PORT") {
                $0.hasPrefix("listening on ")
            }
            guard let portText = line.split(separator: ":").last, let port = Int(portText) else {
                throw ProcessTestError("parlor-server printed \"\(line)\", which names no port")
            }
            return ServerProcess(port: port, dataDirectory: directory, process: process)
        } catch {
            await process.stop()
            throw ServerDidNotStart(log: process.standardError)
        }
    }

    private init(port: Int, dataDirectory: String, process: ChildProcess) {
        self.port = port
        self.dataDirectory = dataDirectory
        self.process = process
    }

    var url: String { "ws://127.0.0.1:\(port)/ws" }
    var isRunning: Bool { process.isRunning }
    var log: String { process.standardError }

    /// Sends `signal` (SIGTERM by default) and waits for the process to exit (SIGKILL after `timeout`);
    /// returns its exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM, timeout: Duration = .seconds(30)) async -> Int32 {
        if process.isRunning { kill(process.pid, signal) }
        if let status = await process.waitForExit(timeout: timeout) { return status }
        kill(process.pid, SIGKILL)
        return await process.waitForExit(timeout: .seconds(10)) ?? -1
    }
}

extension ServerProcess {
    /// Runs `body` against a server started with `arguments` (on `dataDirectory` when given), and stops
    /// it whatever happens.
    static func with<R>(
        _ arguments: [String] = [], dataDirectory: String? = nil, environment: [String: String] = [:],
        _ body: (ServerProcess) async throws -> R
    ) async throws -> R {
        let server = try await start(arguments, dataDirectory: dataDirectory, environment: environment)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// A connection to the server, signed in (as `token`'s user when given), for the duration of `body`.
    func connect<R: Sendable>(token: String? = nil, _ body: (JSONConnection) async throws -> R) async throws -> R {
        try await WebSocketClient.connect(to: url) { ws in
            let connection = JSONConnection(ws)
            try await connection.hello(token: token)
            return try await body(connection)
        }
    }
}

struct ServerDidNotStart: Error, CustomStringConvertible {
    let log: String
    var description: String { "parlor-server did not start:\n\(log)" }
}

/// Runs a script from this target's `Scripts` resources and returns its status and output.
enum ScriptRunner {
    static func scriptPath(_ name: String) throws -> String {
        guard let scripts = Bundle.module.url(forResource: "Scripts", withExtension: nil) else {
            throw ProcessTestError("the Scripts resources are missing")
        }
        return scripts.appendingPathComponent(name).path
    }

    static func run(_ interpreter: String, _ script: String, arguments: [String], timeout: Duration = .seconds(120)) async throws -> (status: Int32, output: String) {
        let process = try ChildProcess(executable: "/usr/bin/env", [interpreter, try scriptPath(script)] + arguments, name: script)
        guard let status = await process.waitForExit(timeout: timeout), await process.waitForOutput() else {
            await process.stop()
            return (-1, "\(script) did not finish within \(timeout)\n\(process.standardOutput)\n\(process.standardError)")
        }
        return (status, process.standardOutput + process.standardError)
    }
}
