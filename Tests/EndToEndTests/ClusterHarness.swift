// Only with the PostgreSQL trait (scripts/test.sh builds the tests with it): see Package.swift.
#if PostgreSQL
import Foundation
import ParlorTestSupport
import Synchronization

/// A cluster as an operator runs one: a throwaway PostgreSQL, several real `parlor-server` processes
/// on it, and HAProxy in front of them with the project's own `deploy/haproxy.cfg`. Clients connect
/// to the front (`url`) and land on whichever node HAProxy picks; a test may also reach a node
/// directly (`node(_:)`) to put a game on a node of its choosing, and may kill one (`kill(_:)`).
///
/// Everything is stopped when `with` returns or throws; the PostgreSQL server goes with the test
/// process (`TestPostgres`).
final class ClusterHarness: Sendable {
    let postgres: TestPostgres
    let database: String
    let frontPort: Int
    /// The flags every node runs with, besides its own address, name and data.
    private let arguments: [String]
    private let parts: Mutex<Parts>

    private struct Parts {
        var nodes: [ServerProcess]
        /// The front, and the fronts a reload replaced (they finish the connections they hold).
        var front: ChildProcess
        var oldFronts: [ChildProcess] = []
    }

    /// The front's WebSocket endpoint.
    var url: String { "ws://127.0.0.1:\(frontPort)/ws" }
    var nodeCount: Int { parts.withLock { $0.nodes.count } }

    /// Node `index` (0-based), whether or not it is still running.
    func node(_ index: Int) -> ServerProcess { parts.withLock { $0.nodes[index] } }

    /// `kill -9` of node `index`: no shutdown, no goodbye to its clients, whatever it had in flight lost.
    func kill(_ index: Int) async {
        let node = node(index)
        Glibc.kill(node.process.pid, SIGKILL)
        _ = await node.process.waitForExit(timeout: .seconds(10))
    }

    /// Restarts node `index` as an operator does in a rolling restart: SIGTERM (it drains), waits for
    /// it to exit, starts it again under the same name on the same port (the front's address for it).
    func restart(_ index: Int) async throws {
        let old = node(index)
        await old.stop(signal: SIGTERM, timeout: .seconds(30))
        let restarted = try await Self.startNode(index, postgres: postgres, database: database, arguments: arguments + ["--port", "\(old.port)"])
        parts.withLock { $0.nodes[index] = restarted }
    }

    /// Adds a node, as an operator does: starts it, adds it to the front's configuration and reloads
    /// the front (the old front finishes the connections it holds; new ones go through the new).
    /// Returns its index.
    @discardableResult
    func addNode() async throws -> Int {
        let index = nodeCount
        let added = try await Self.startNode(index, postgres: postgres, database: database, arguments: arguments)
        let nodes = parts.withLock { parts in
            parts.nodes.append(added)
            return parts.nodes
        }
        let old = parts.withLock { $0.front }
        let (front, _) = try await Self.startFront(nodes: nodes, port: frontPort, replacing: old)
        parts.withLock { parts in
            parts.oldFronts.append(parts.front)
            parts.front = front
        }
        // The front takes a new server in after two good checks a second apart (`rise 2`).
        try await Task.sleep(for: .seconds(3))
        return index
    }

    /// HAProxy's log (stderr), for a failing test's message.
    var frontLog: String { parts.withLock { $0.front.standardError } }

    /// The PostgreSQL server's address for the cluster's database.
    var databaseAddress: String { postgres.address(database) }

    /// The node serving game `id` as the database records it (nil: none).
    func servingNode(of id: String) async throws -> String? {
        let node = try await postgres.psql("SELECT coalesce(node, '') FROM games WHERE id = '\(id)'", database: database)
        return node.isEmpty ? nil : node
    }

    /// Starts PostgreSQL's database (on the shared server, or `postgres` when given: a test that stops
    /// the database passes one of its own), `nodes` nodes with `arguments`, and the front; runs `body`;
    /// stops them all. Nil when PostgreSQL is not installed.
    static func with<R>(
        nodes count: Int = 3, postgres given: TestPostgres? = nil, arguments: [String] = [], beforeNodes: (TestPostgres, String) async throws -> Void = { _, _ in },
        _ body: (ClusterHarness) async throws -> R
    ) async throws -> R {
        let postgres: TestPostgres
        if let given { postgres = given } else { postgres = try requireNonNil(try await TestPostgres.shared()) }
        let database = try await postgres.makeDatabase()
        try await beforeNodes(postgres, database)
        var started: [ServerProcess] = []
        var front: ChildProcess?
        do {
            for index in 0..<count {
                started.append(try await startNode(index, postgres: postgres, database: database, arguments: arguments))
            }
            let (process, port) = try await startFront(nodes: started)
            front = process
            let cluster = ClusterHarness(
                postgres: postgres, database: database, frontPort: port, arguments: arguments, parts: Parts(nodes: started, front: process))
            let result = try await body(cluster)
            await cluster.stopAll()
            return result
        } catch {
            await front?.stop()
            for node in started { await node.stop() }
            throw error
        }
    }

    private init(postgres: TestPostgres, database: String, frontPort: Int, arguments: [String], parts: Parts) {
        self.postgres = postgres
        self.database = database
        self.frontPort = frontPort
        self.arguments = arguments
        self.parts = Mutex(parts)
    }

    private func stopAll() async {
        let (fronts, nodes) = parts.withLock { ([$0.front] + $0.oldFronts, $0.nodes) }
        for front in fronts { await front.stop() }
        for node in nodes where node.isRunning { await node.stop() }
    }

    /// Node `index`, named as the front names its server. Every client reaches the nodes from the
    /// front's address: as deploy/haproxy.cfg says, the per-address limits are lifted for it, and the
    /// per-user ones hold.
    private static func startNode(_ index: Int, postgres: TestPostgres, database: String, arguments: [String]) async throws -> ServerProcess {
        try await ServerProcess.start(
            ["--postgres", postgres.address(database), "--node-name", nodeName(index), "--exempt-address", "127.0.0.0/8"] + arguments)
    }

    /// Node `index`'s name (0-based): the front's name for its server.
    static func nodeName(_ index: Int) -> String { "node\(index + 1)" }

    /// The repository's deploy/haproxy.cfg.
    static var frontConfiguration: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("deploy/haproxy.cfg").path
    }

    /// The HAProxy executable, if installed (`scripts/setup.sh --test` installs Debian's).
    static var haproxy: String? {
        ["/usr/sbin/haproxy", "/usr/bin/haproxy", "/usr/local/sbin/haproxy"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Why cluster tests are skipped here, or nil when they run.
    static let unavailableReason: String? =
        TestPostgres.unavailableReason
        ?? (haproxy == nil ? "HAProxy is not installed; `scripts/setup.sh --test` installs it." : nil)

    /// HAProxy in the foreground with deploy/haproxy.cfg (and a `server` line in each backend for every
    /// node past the file's three), the nodes' addresses in its environment (a cluster of fewer than
    /// three names its first node again), on a free loopback port — or on `port`, replacing the front
    /// `replacing` as a reload does (`-sf`: it stops taking connections and finishes those it holds).
    /// Returns once the front answers `/healthz` through a node.
    private static func startFront(nodes: [ServerProcess], port given: Int? = nil, replacing old: ChildProcess? = nil) async throws -> (ChildProcess, Int) {
        guard let haproxy else { throw ProcessTestError("HAProxy is not installed") }
        var configuration = try String(contentsOfFile: frontConfiguration, encoding: .utf8)
        for index in 3..<max(3, nodes.count) {
            let name = nodeName(index)
            configuration = configuration
                .replacingOccurrences(
                    of: "    server node3 \"${PARLOR_NODE_3}\"\n",
                    with: "    server node3 \"${PARLOR_NODE_3}\"\n    server \(name) \"${PARLOR_NODE_\(index + 1)}\"\n")
                .replacingOccurrences(
                    of: "    server node3 \"${PARLOR_NODE_3}\" track nodes/node3\n",
                    with: "    server node3 \"${PARLOR_NODE_3}\" track nodes/node3\n    server \(name) \"${PARLOR_NODE_\(index + 1)}\" track nodes/\(name)\n")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-haproxy-\(UUID().uuidString).cfg").path
        try configuration.write(toFile: file, atomically: true, encoding: .utf8)
        var lastFailure = ""
        for _ in 0..<5 {
            let port = try given ?? TestPorts.freeLoopbackPort()
            var environment = ["PARLOR_FRONT": "127.0.0.1:\(port)"]
            for index in 0..<max(3, nodes.count) { environment["PARLOR_NODE_\(index + 1)"] = "127.0.0.1:\(nodes[min(index, nodes.count - 1)].port)" }
            let reload = old.map { ["-sf", "\($0.pid)"] } ?? []
            let process = try ChildProcess(executable: haproxy, ["-db", "-f", file] + reload, environment: environment, name: "haproxy")
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline, process.isRunning {
                if let answer = try? await curl(["http://127.0.0.1:\(port)/healthz"]), answer.status == 200 { return (process, port) }
                try await Task.sleep(for: .milliseconds(100))
            }
            lastFailure = process.standardError
            await process.stop()
        }
        throw ProcessTestError("HAProxy did not start: \(lastFailure)")
    }

    /// The value of metric `name` on node `index` summed over every sample whose labels contain
    /// `labels` (in the exposition's own spelling); nil when the node does not answer or has no such
    /// sample.
    func metricSum(_ name: String, labels: String = "", on index: Int) async -> Double? {
        guard node(index).isRunning, let answer = try? await curl(["http://127.0.0.1:\(node(index).port)/metrics"]), answer.status == 200
        else { return nil }
        var total: Double?
        for line in answer.body.split(separator: "\n") where line.hasPrefix(name + " ") || line.hasPrefix(name + "{") {
            guard labels.isEmpty || line.contains(labels), let value = Double(line.split(separator: " ").last ?? "") else { continue }
            total = (total ?? 0) + value
        }
        return total
    }

    /// The value of metric `name` (with `labels`, in the exposition's own spelling, when given) on node
    /// `index`, from its `/metrics`; nil when the node does not answer or has no such line.
    func metric(_ name: String, labels: String = "", on index: Int) async -> Double? {
        guard node(index).isRunning, let answer = try? await curl(["http://127.0.0.1:\(node(index).port)/metrics"]), answer.status == 200
        else { return nil }
        let prefix = labels.isEmpty ? name + " " : "\(name){\(labels)} "
        for line in answer.body.split(separator: "\n") where line.hasPrefix(prefix) {
            return Double(line.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}

/// `#require` for a helper outside a test body.
private func requireNonNil<T>(_ value: T?, _ message: String = "PostgreSQL is not installed") throws -> T {
    guard let value else { throw ProcessTestError(message) }
    return value
}
#endif
