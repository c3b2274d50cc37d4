import NIOCore
import NIOHTTP1
import ParlorRules
import ParlorWire
import WebSocketCore

/// A REST route a game registers: a method and a path pattern (`/rooms/{code}/players/{id}/ready`)
/// answered by one of the game's operation handlers, with the arguments made from the path, the query
/// and the body.
struct HTTPRoute: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter
    }

    let method: HTTPMethod
    let pattern: [Segment]
    let access: OperationAccess
    /// The status of a success (`201 Created`, `204 No Content` — which sends no body).
    let status: HTTPResponseStatus
    /// Reads the request into the call (after the access check: a missing token is refused first).
    let prepare: @Sendable (HTTPRouteRequest) throws(WireError) -> PreparedCall

    /// `path` is `/`-separated; a `{name}` segment matches any one segment and is passed to `prepare`
    /// in order.
    init(
        _ method: HTTPMethod, _ path: String, status: HTTPResponseStatus = .ok, access: OperationAccess = .signedIn,
        _ prepare: @escaping @Sendable (HTTPRouteRequest) throws(WireError) -> PreparedCall
    ) {
        self.method = method
        pattern = path.split(separator: "/").map { $0.hasPrefix("{") && $0.hasSuffix("}") ? .parameter : .literal(String($0)) }
        self.access = access
        self.status = status
        self.prepare = prepare
    }

    /// The path parameters when `path` (split into segments) matches the pattern.
    func match(_ path: [String]) -> [String]? {
        guard path.count == pattern.count else { return nil }
        var parameters: [String] = []
        for (segment, part) in zip(pattern, path) {
            switch segment {
            case .literal(let literal): if literal != part { return nil }
            case .parameter: parameters.append(part)
            }
        }
        return parameters
    }
}

/// A request as a route reads it.
struct HTTPRouteRequest: Sendable {
    /// The pattern's parameters, in order.
    let parameters: [String]
    let request: HTTPRequest

    var query: [String: String] { request.query }

    /// The JSON body as `T`; a body that cannot be read, or that repeats a key, is `BAD_REQUEST` naming
    /// the field.
    func body<T: Decodable>(_ type: T.Type) throws(WireError) -> T {
        switch RequestEnvelope.decodeBody(T.self, from: request.body.readableBytesView) {
        case .success(let value): return value
        case .failure(let badRequest): throw badRequest.wireError
        }
    }
}
