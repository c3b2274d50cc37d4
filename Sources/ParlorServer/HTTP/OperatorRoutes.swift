import NIOCore
import NIOHTTP1
import ParlorWire
import WebSocketCore

/// The operators' routes, on the main port and on the admin port alike: `/healthz` (is the server able
/// to serve: 200 `ok`, or 503 with the reason) and `/metrics` (Prometheus text, behind the admin token
/// when one is set). Never rate-limited: they are what operators watch an attack with.
struct OperatorRoutes: Sendable {
    let services: ParlorServices

    static let paths: Set<String> = ["healthz", "metrics"]

    /// The response for an operator route; nil when `path` (split into segments) is none of them.
    func respond(to request: HTTPRequest, path: [String]) async -> HTTPResponse? {
        guard path.count == 1, Self.paths.contains(path[0]) else { return nil }
        switch (request.method, path[0]) {
        case (.GET, "healthz"), (.HEAD, "healthz"):
            switch await services.store.health() {
            case .healthy:
                return .text(.ok, "ok\n")
            case .unhealthy(let reason):
                return .text(.serviceUnavailable, "unhealthy: \(reason)\n")
            }
        case (.GET, "metrics"):
            if let refusal = checkAdminToken(request) { return refusal }
            services.refreshGauges()
            return HTTPResponse(
                status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"],
                body: ByteBuffer(bytes: services.metrics.exposition()))
        default:
            return HTTPRoutes.error(WireError(.methodNotAllowed, "\(request.method) is not supported on \(request.path)."))
        }
    }

    /// 401 unless the request carries the admin token (when one is configured).
    private func checkAdminToken(_ request: HTTPRequest) -> HTTPResponse? {
        guard let token = services.adminToken, !token.accepts(BearerToken.from(request.headers)) else { return nil }
        var response = HTTPRoutes.error(WireError(.unauthenticated, "/metrics needs Authorization: Bearer <admin token>."))
        response.headers.add(name: "WWW-Authenticate", value: "Bearer")
        return response
    }
}
