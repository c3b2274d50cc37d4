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
    private let nodes: [ServerProcess]
    private let front: ChildProcess

    /// The front's WebSocket endpoint.
    var url: String { "ws://127.0.0.1:\(frontPort)/ws" }
    var nodeCount: Int { nodes.count }

    /// Node `index` (0-based), whether or not it is still running.
    func node(_ index: Int) -> ServerProcess { nodes[index] }

    /// `kill -9` of node `index`: no shutdown, no goodbye to its clients, whatever it had in flight lost.
    func kill(_ index: Int) async {
        let node = nodes[index]
        Glibc.kill(node.process.pid, SIGKILL)
        _ = await node.process.waitForExit(timeout: .seconds(10))
    }

    /// HAProxy's log (stderr), for a failing test's message.
    var frontLog: String { front.standardError }

    /// The PostgreSQL server's address for the cluster's database.
    var databaseAddress: String { postgres.address(database) }

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
                // Every client reaches the nodes from the front's address: as deploy/haproxy.cfg says, the
                // per-address limits are lifted for it, and the per-user ones hold. Each node is named
                // as the front names its server.
                started.append(try await ServerProcess.start(
                    ["--postgres", postgres.address(database), "--node-name", nodeName(index), "--exempt-address", "127.0.0.0/8"] + arguments))
            }
            let (process, port) = try await startFront(nodes: started)
            front = process
            let cluster = ClusterHarness(postgres: postgres, database: database, frontPort: port, nodes: started, front: process)
            let result = try await body(cluster)
            await cluster.stopAll()
            return result
        } catch {
            await front?.stop()
            for node in started { await node.stop() }
            throw error
        }
    }

    private init(postgres: TestPostgres, database: String, frontPort: Int, nodes: [ServerProcess], front: ChildProcess) {
        self.postgres = postgres
        self.database = database
        self.frontPort = frontPort
        self.nodes = nodes
        self.front = front
    }

    private func stopAll() async {
        await front.stop()
        for node in nodes where node.isRunning { await node.stop() }
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

    /// HAProxy in the foreground on a free loopback port with deploy/haproxy.cfg, the nodes' addresses
    /// in its environment (a cluster of fewer than three names its first node again); returns once the
    /// front answers `/healthz` through a node.
    private static func startFront(nodes: [ServerProcess]) async throws -> (ChildProcess, Int) {
        guard let haproxy else { throw ProcessTestError("HAProxy is not installed") }
        var lastFailure = ""
        for _ in 0..<5 {
            let port = try TestPorts.freeLoopbackPort()
            var environment = ["PARLOR_FRONT": "127.0.0.1:\(port)"]
            for index in 0..<3 { environment["PARLOR_NODE_\(index + 1)"] = "127.0.0.1:\(nodes[min(index, nodes.count - 1)].port)" }
            let process = try ChildProcess(executable: haproxy, ["-db", "-f", frontConfiguration], environment: environment, name: "haproxy")
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

    /// The value of metric `name` (with `labels`, in the exposition's own spelling, when given) on node
    /// `index`, from its `/metrics`; nil when the node does not answer or has no such line.
    func metric(_ name: String, labels: String = "", on index: Int) async -> Double? {
        guard nodes[index].isRunning, let answer = try? await curl(["http://127.0.0.1:\(nodes[index].port)/metrics"]), answer.status == 200
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
