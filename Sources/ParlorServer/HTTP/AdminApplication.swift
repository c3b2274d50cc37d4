import NIOCore
import ParlorWire
import WebSocketCore

/// The admin port (`--admin-port`): `/healthz` and `/metrics` over plain HTTP on a listener of their
/// own, with connection slots no client can take, so operators keep their view of a server whose
/// client connections are exhausted. Nothing else is served there.
struct AdminApplication: WebSocketServerApplication {
    let services: ParlorServices

    func shouldUpgrade(_ request: WebSocketUpgradeRequest) -> WebSocketUpgradeDecision {
        .reject(.notFound, reason: "The admin port serves HTTP only: /healthz and /metrics.")
    }

    func handle(_ webSocket: WebSocket, request: WebSocketUpgradeRequest) async {
        await webSocket.close(code: .policyViolation, reason: "admin port")
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let path = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if let response = await OperatorRoutes(services: services).respond(to: request, path: path) { return response }
        return HTTPRoutes.error(WireError(.notFound, "The admin port serves /healthz and /metrics only."))
    }
}
