import NIOCore
import ParlorWire
import WebSocketCore

/// The admin port (`--admin-port`): `/healthz`, `/metrics` and the operator's page (`/admin`, its
/// API and the web client's files it loads) over plain HTTP on a listener of their own, with
/// connection slots no client can take, so operators keep their view of a server whose client
/// connections are exhausted. Nothing else is served there.
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
        if let response = await AdminAPI(services: services).respond(to: request, path: path) { return response }
        if let response = await AdminBackupRoute(services: services).respond(to: request, path: path) { return response }
        if path == ["admin"] || path.first == WebClientSite.assetPrefix, let response = services.webClient.respond(to: request) {
            return response
        }
        return HTTPRoutes.error(WireError(.notFound, "The admin port serves /healthz, /metrics and /admin only."))
    }
}
