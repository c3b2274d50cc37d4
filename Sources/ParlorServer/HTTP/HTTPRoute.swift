import NIOCore
import NIOHTTP1
import ParlorRules
import ParlorWire
import WebSocketCore

/// A REST route a game (or the server's accounts) registers: a method and a path pattern
/// (`/rooms/{code}/players/{id}/ready`) answered by one of its operation handlers, with the arguments
/// made from the path, the query and the body — or, for what is not JSON (a photo or an avatar going up,
/// an image coming down), by a response the route makes itself.
struct HTTPRoute: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter
        /// The rest of the path, one segment or more, as one parameter (`a/b.png`); last only.
        case rest
    }

    let method: HTTPMethod
    let pattern: [Segment]
    let access: OperationAccess
    /// The status of a success (`201 Created`, `204 No Content` — which sends no body).
    let status: HTTPResponseStatus
    /// The largest body the route reads; the listener refuses a larger one with 413 before reading it.
    let maxBodySize: Int
    let handler: Handler

    /// What answers a matched request, after the access check (a missing token is refused first).
    enum Handler: Sendable {
        /// Reads the request into an operation's call, answered as JSON with the route's `status`.
        case operation(@Sendable (HTTPRouteRequest) throws(WireError) -> PreparedCall)
        /// Makes the whole response (headers, bytes that are not JSON); the user is nil for `.anyone`.
        case response(@Sendable (HTTPRouteRequest, UserID?) async throws(WireError) -> HTTPResponse)
    }

    /// What a route reads unless it says otherwise: REST bodies are small JSON documents.
    static let defaultMaxBodySize = 64 * 1024

    /// `path` is `/`-separated; a `{name}` segment matches any one segment and a last `{name*}` the rest
    /// of the path; each is passed to `prepare` in order.
    init(
        _ method: HTTPMethod, _ path: String, status: HTTPResponseStatus = .ok, access: OperationAccess = .signedIn,
        maxBodySize: Int = HTTPRoute.defaultMaxBodySize,
        _ prepare: @escaping @Sendable (HTTPRouteRequest) throws(WireError) -> PreparedCall
    ) {
        self.method = method
        pattern = Self.pattern(path)
        self.access = access
        self.status = status
        self.maxBodySize = maxBodySize
        handler = .operation(prepare)
    }

    /// A route an operation's declaration gives (method and status as the wire spells them). Its JSON
    /// body may carry the access arguments any operation takes beside its own (`private`, `spectators`,
    /// `invite`: `GameAccessRequest`), as the WebSocket's arguments may (`POST /darts/{code}/players
    /// {"playerName": "Bo", "invite": "i1.…"}`).
    init(
        declared method: String, _ path: String, status: Int, access: OperationAccess,
        _ prepare: @escaping @Sendable (HTTPRouteRequest) throws(WireError) -> PreparedCall
    ) {
        self.init(HTTPMethod(rawValue: method), path, status: HTTPResponseStatus(statusCode: status), access: access) {
            request throws(WireError) in
            let call = try prepare(request)
            let requested = try request.accessRequest()
            guard !requested.isEmpty else { return call }
            return { context throws(WireError) in try await RequestedAccess.run(requested, call, context) }
        }
    }

    /// A route that makes its own response (headers, bytes) rather than an operation's JSON.
    init(
        _ method: HTTPMethod, _ path: String, access: OperationAccess = .signedIn, maxBodySize: Int = HTTPRoute.defaultMaxBodySize,
        respond: @escaping @Sendable (HTTPRouteRequest, UserID?) async throws(WireError) -> HTTPResponse
    ) {
        self.method = method
        pattern = Self.pattern(path)
        self.access = access
        status = .ok
        self.maxBodySize = maxBodySize
        handler = .response(respond)
    }

    private static func pattern(_ path: String) -> [Segment] {
        path.split(separator: "/").map { segment in
            if segment.hasPrefix("{") && segment.hasSuffix("*}") { return .rest }
            return segment.hasPrefix("{") && segment.hasSuffix("}") ? .parameter : .literal(String(segment))
        }
    }

    /// The path parameters when `path` (split into segments) matches the pattern.
    func match(_ path: [String]) -> [String]? {
        let takesRest = pattern.last == .rest
        guard takesRest ? path.count >= pattern.count : path.count == pattern.count else { return nil }
        var parameters: [String] = []
        for (index, segment) in pattern.enumerated() {
            switch segment {
            case .literal(let literal): if literal != path[index] { return nil }
            case .parameter: parameters.append(path[index])
            case .rest: parameters.append(path[index...].joined(separator: "/"))
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

    /// The request as an operation's declared route reads it.
    var declared: RouteRequest {
        RouteRequest(parameters: parameters, query: request.query, body: Array(request.body.readableBytesView))
    }

    /// The access arguments in the JSON body (`GameAccessRequest`); none when there is no body, or when
    /// it is not an object.
    func accessRequest() throws(WireError) -> GameAccessRequest {
        guard request.body.readableBytesView.first(where: { !Self.isJSONSpace($0) }) == UInt8(ascii: "{") else { return GameAccessRequest() }
        return try body(GameAccessRequest.self)
    }

    private static func isJSONSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }

    /// The JSON body as `T`; a body that cannot be read, or that repeats a key, is `BAD_REQUEST` naming
    /// the field.
    func body<T: Decodable>(_ type: T.Type) throws(WireError) -> T {
        switch RequestEnvelope.decodeBody(T.self, from: request.body.readableBytesView) {
        case .success(let value): return value
        case .failure(let badRequest): throw badRequest.wireError
        }
    }
}
