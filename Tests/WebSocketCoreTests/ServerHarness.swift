import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
@testable import WebSocketCore

/// An application whose behaviour each test sets.
struct TestApplication: WebSocketServerApplication {
    var decide: @Sendable (WebSocketUpgradeRequest) -> WebSocketUpgradeDecision = { _ in .accept() }
    var serve: @Sendable (WebSocket, WebSocketUpgradeRequest) async -> Void = { webSocket, _ in
        do {
            for try await message in webSocket.inbound { try await webSocket.send(message) }
        } catch {}
    }

    var bodyLimit: @Sendable (HTTPMethod, String) -> Int? = { _, _ in nil }
    var respond: @Sendable (HTTPRequest) async -> HTTPResponse = TestApplication.standardResponse

    func shouldUpgrade(_ request: WebSocketUpgradeRequest) -> WebSocketUpgradeDecision { decide(request) }
    func maxRequestBodySize(method: HTTPMethod, path: String) -> Int? { bodyLimit(method, path) }
    func handle(_ webSocket: WebSocket, request: WebSocketUpgradeRequest) async { await serve(webSocket, request) }
    func respond(to request: HTTPRequest) async -> HTTPResponse { await respond(request) }

    @Sendable static func standardResponse(_ request: HTTPRequest) -> HTTPResponse {
        if request.path == "/healthz" { return .text(.ok, "ok") }
        return .text(.notFound, "no \(request.path) here; body \(request.body.readableBytes) bytes")
    }
}

/// Runs a server on 127.0.0.1:0 for the duration of `body`, then shuts it down and waits for it.
func withServer<R: Sendable>(
    configure: (inout WebSocketServerConfiguration) -> Void = { _ in },
    application: TestApplication = TestApplication(),
    _ body: (_ port: Int, _ server: WebSocketServer<TestApplication>) async throws -> R
) async throws -> R {
    var configuration = WebSocketServerConfiguration()
    configuration.port = 0
    configuration.shutdownGracePeriod = .milliseconds(200)
    configuration.webSocket.closeTimeout = .milliseconds(500)
    configure(&configuration)
    let server = WebSocketServer(configuration: configuration, application: application)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run() }
        let port = try await server.localAddress().port!
        let result: R
        do {
            result = try await body(port, server)
        } catch {
            server.beginGracefulShutdown()
            try? await group.waitForAll()
            throw error
        }
        server.beginGracefulShutdown()
        try await group.waitForAll()
        return result
    }
}

/// A TCP client that sends raw bytes and collects what comes back, for tests that speak the protocol
/// by hand.
final class RawConnection: Sendable {
    private let channel: any Channel
    private let collector: Collector

    final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let received = NIOLockedValueBox(ByteBuffer())
        let closed = NIOLockedValueBox(false)

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            received.withLockedValue { _ = $0.writeBuffer(&buffer) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            closed.withLockedValue { $0 = true }
        }
    }

    /// Connects to 127.0.0.1:`port`, from `localAddress` (another loopback address) when given.
    init(port: Int, from localAddress: String? = nil) async throws {
        let collector = Collector()
        self.collector = collector
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) }
            }
        if let localAddress { bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: localAddress, port: 0)) }
        channel = try await bootstrap.connect(host: "127.0.0.1", port: port).get()
    }

    func send(_ string: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: string)).get()
    }

    func send(_ buffer: ByteBuffer) async throws {
        try await channel.writeAndFlush(buffer).get()
    }

    var received: ByteBuffer { collector.received.withLockedValue { $0 } }
    var receivedText: String { String(buffer: received) }
    var isClosed: Bool { collector.closed.withLockedValue { $0 } }

    /// Polls until `condition` holds or `timeout` passes; returns whether it held.
    func waitUntil(timeout: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    func close() async { try? await channel.close().get() }

    static func upgradeRequest(path: String = "/", extra: String = "") -> String {
        "GET \(path) HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\(extra)\r\n"
    }
}

func clientConfiguration(_ configure: (inout WebSocketClientConfiguration) -> Void = { _ in }) -> WebSocketClientConfiguration {
    var configuration = WebSocketClientConfiguration()
    configuration.webSocket.closeTimeout = .milliseconds(500)
    configure(&configuration)
    return configuration
}
