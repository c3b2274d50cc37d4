import NIOCore
import NIOHTTP1
import ParlorWire
import WebSocketCore

/// The operators' routes, on the main port and on the admin port alike: `/healthz` (is the server able
/// to serve: 200 `ok` — `draining` while a node of a cluster drains — or 503 with the reason), `/readyz`
/// (should a front send it new connections: 200 `ready`, or 503 `draining`; what a cluster's front
/// checks) and `/metrics` (Prometheus text, behind the admin token when one is set). Never
/// rate-limited: they are what operators watch an attack with.
struct OperatorRoutes: Sendable {
    let services: ParlorServices

    static let paths: Set<String> = ["healthz", "readyz", "metrics"]

    /// The response for an operator route; nil when `path` (split into segments) is none of them.
    func respond(to request: HTTPRequest, path: [String]) async -> HTTPResponse? {
        guard path.count == 1, Self.paths.contains(path[0]) else { return nil }
        switch (request.method, path[0]) {
        case (.GET, "healthz"), (.HEAD, "healthz"):
            switch await services.store.health() {
            case .healthy:
                return .text(.ok, services.isDraining ? "draining\n" : "ok\n")
            case .unhealthy(let reason):
                return .text(.serviceUnavailable, "unhealthy: \(reason)\n")
            }
        case (.GET, "readyz"), (.HEAD, "readyz"):
            // Whether the node answers and takes new clients: a database that is away is every node's
            // problem, not a reason to send clients elsewhere (/healthz says it).
            return services.isDraining ? .text(.serviceUnavailable, "draining\n") : .text(.ok, "ready\n")
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
