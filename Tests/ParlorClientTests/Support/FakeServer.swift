import NIOCore
import ParlorClient
import WebSocketCore

/// A WebSocket server in front of a ``FakeBackend``, on 127.0.0.1 (port 0 the first time; the same port
/// again after a restart).
final class FakeServer: Sendable {
    struct Application: WebSocketServerApplication {
        let backend: FakeBackend

        func shouldUpgrade(_ request: WebSocketUpgradeRequest) -> WebSocketUpgradeDecision {
            request.path == "/ws" ? .accept() : .reject(.notFound, reason: "no \(request.path) here")
        }

        func handle(_ webSocket: WebSocket, request: WebSocketUpgradeRequest) async {
            await backend.serve(webSocket)
        }

        func respond(to request: HTTPRequest) async -> HTTPResponse {
            .text(.notFound, "not here")
        }
    }

    let backend: FakeBackend
    let server: WebSocketServer<Application>
    let task: Task<Void, any Error>
    let port: Int

    private init(backend: FakeBackend, server: WebSocketServer<Application>, task: Task<Void, any Error>, port: Int) {
        self.backend = backend
        self.server = server
        self.task = task
        self.port = port
    }

    static func start(backend: FakeBackend = FakeBackend(), port: Int = 0) async throws -> FakeServer {
        var configuration = WebSocketServerConfiguration()
        configuration.port = port
        configuration.shutdownGracePeriod = .milliseconds(50)
        configuration.webSocket.closeTimeout = .milliseconds(200)
        let server = WebSocketServer(configuration: configuration, application: Application(backend: backend))
        let task = Task { try await server.run() }
        let address = try await server.localAddress()
        guard let bound = address.port else { throw ParlorClientError.invalidConfiguration("the fake server has no port") }
        return FakeServer(backend: backend, server: server, task: task, port: bound)
    }

    /// Ports below Linux's ephemeral range (32768–60999), so no listener on port 0 — another test running
    /// meanwhile — can take the port while a restart test has it closed.
    static let restartablePorts = 20_000..<30_000

    /// Starts on a free port that can be bound again after a stop.
    static func startRestartable(backend: FakeBackend) async throws -> FakeServer {
        var lastError: (any Error)?
        for _ in 0..<20 {
            do {
                return try await start(backend: backend, port: Int.random(in: restartablePorts))
            } catch {
                lastError = error
            }
        }
        throw lastError ?? ParlorClientError.invalidConfiguration("no free port")
    }

    /// Starts again on `port` after a stop, retrying for up to two seconds while the port is still held
    /// (under a full parallel test run the old listener's close can lag the stop).
    static func restart(backend: FakeBackend, port: Int) async throws -> FakeServer {
        var lastError: (any Error)?
        for _ in 0..<20 {
            do {
                return try await start(backend: backend, port: port)
            } catch {
                lastError = error
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        throw lastError ?? ParlorClientError.invalidConfiguration("port \(port) stayed busy")
    }

    var address: ServerAddress {
        get throws { try ServerAddress("ws://127.0.0.1:\(port)") }
    }

    /// Stops, closing every connection (1001), and waits until it has.
    func stop() async {
        server.beginGracefulShutdown()
        _ = try? await task.value
    }
}

/// A client configuration for tests: fast backoff, short timeouts, tokens in memory.
func testConfiguration(_ address: ServerAddress, tokens: any TokenStore = InMemoryTokenStore()) -> ParlorClientConfiguration {
    var configuration = ParlorClientConfiguration(server: address)
    configuration.tokenStore = tokens
    configuration.requestTimeout = .seconds(3)
    configuration.reconnect.initialDelay = .milliseconds(20)
    configuration.reconnect.maximumDelay = .milliseconds(200)
    configuration.webSocket.webSocket.closeTimeout = .milliseconds(200)
    return configuration
}

/// Runs `client` for the duration of `body`, then closes it and waits for `run()` to return.
func withRunningClient<R: Sendable>(
    _ client: ParlorClient, _ body: (ParlorClient) async throws -> R
) async throws -> R {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await client.run() }
        do {
            let result = try await body(client)
            await client.close()
            try await group.waitForAll()
            return result
        } catch {
            await client.close()
            try? await group.waitForAll()
            throw error
        }
    }
}

/// The next element of a stream, or nil if none comes within `timeout`.
func next<Element: Sendable>(_ iterator: inout AsyncStream<Element>.Iterator, timeout: Duration = .seconds(5)) async -> Element? {
    let box = IteratorBox(iterator)
    let result = await withTaskGroup(of: Element?.self) { group in
        group.addTask { await box.next() }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
    iterator = box.iterator
    return result
}

/// Lets a child task advance an iterator (tests only: one task at a time uses it).
private final class IteratorBox<Element: Sendable>: @unchecked Sendable {
    var iterator: AsyncStream<Element>.Iterator
    init(_ iterator: AsyncStream<Element>.Iterator) { self.iterator = iterator }
    func next() async -> Element? { await iterator.next() }
}
