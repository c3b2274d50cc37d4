import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import SystemTLS
import WebSocketCore

/// Parlor's routes on the one port: WebSocket upgrades and plain HTTP.
struct ParlorApplication: WebSocketServerApplication {
    let configuration: ServerConfiguration
    let logger: Logger

    func shouldUpgrade(_ request: WebSocketUpgradeRequest) -> WebSocketUpgradeDecision {
        switch request.path {
        case EchoEndpoint.path where configuration.echo:
            return .accept()
        default:
            return .reject(.notFound, reason: "No WebSocket endpoint at \(request.path)")
        }
    }

    func handle(_ webSocket: WebSocket, request: WebSocketUpgradeRequest) async {
        switch request.path {
        case EchoEndpoint.path:
            await EchoEndpoint.serve(webSocket)
        default:
            await webSocket.close(code: .policyViolation, reason: "unknown endpoint")
        }
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        switch (request.method, request.path) {
        case (.GET, "/healthz"), (.HEAD, "/healthz"):
            return .text(.ok, "ok\n")
        case (_, EchoEndpoint.path) where configuration.echo:
            return HTTPResponse(
                status: .upgradeRequired, headers: ["Upgrade": "websocket", "Sec-WebSocket-Version": "13"],
                body: ByteBuffer(string: "This endpoint speaks WebSocket only\n"))
        default:
            return .text(.notFound, "Not found\n")
        }
    }
}

/// The WebSocket/HTTP listener as a ServiceLifecycle service: SIGTERM or SIGINT stop accepting, let
/// connections finish within the grace period, and close the rest with 1001.
struct ListenerService: Service {
    let server: WebSocketServer<ParlorApplication>

    func run() async throws {
        try await withGracefulShutdownHandler {
            try await server.run()
        } onGracefulShutdown: {
            server.beginGracefulShutdown()
        }
    }
}

/// Starts Parlor with a configuration and runs it until a shutdown signal.
public enum ParlorServerRunner {
    /// Runs until SIGTERM/SIGINT. `onListening` receives the bound address (the real port when the
    /// configured port is 0).
    public static func run(
        configuration: ServerConfiguration, logger: Logger,
        onListening: @escaping @Sendable (SocketAddress) -> Void = { _ in }
    ) async throws {
        var listenerConfiguration = WebSocketServerConfiguration()
        listenerConfiguration.host = configuration.host
        listenerConfiguration.port = configuration.port
        listenerConfiguration.webSocket = configuration.webSocket
        listenerConfiguration.maxHeaderSize = configuration.maxHeaderSize
        listenerConfiguration.handshakeTimeout = configuration.handshakeTimeout
        listenerConfiguration.shutdownGracePeriod = configuration.shutdownGracePeriod
        listenerConfiguration.allowedOrigins = configuration.allowedOrigins
        if let tls = configuration.tls {
            listenerConfiguration.tls = try TLSServerContext(
                configuration: TLSServerConfiguration(certificateChainPath: tls.certificatePath, privateKeyPath: tls.privateKeyPath))
        }
        let server = WebSocketServer(
            configuration: listenerConfiguration,
            application: ParlorApplication(configuration: configuration, logger: logger), logger: logger)
        let services = ServiceGroup(
            services: [ListenerService(server: server)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await services.run() }
            group.addTask {
                if let address = try? await server.localAddress() { onListening(address) }
            }
        }
    }
}
