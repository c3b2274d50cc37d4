import Foundation
import NIOCore
import NIOHTTP1
import ParlorRules
import ParlorWire
import WebSocketCore

/// The HTTP side of the one port: the games' and the accounts' REST routes (each game route answered by
/// the same handler as its WebSocket operation), the callable functions, `POST /session`, the browser
/// client (`GET /`, `/web/…`), and the operators' `/healthz` and `/metrics`. Errors come back as
/// `{"error": {...}}` with the code's HTTP status.
///
/// Every request but the operators' counts against its user's rate (when it carries a valid token)
/// and its address's, shared with their WebSocket requests; past either, `429` with `Retry-After`.
struct HTTPRoutes: Sendable {
    let services: ParlorServices

    /// What `Retry-After` says when a user is at their quota of games: places free up as games end, and
    /// abandoned ones are swept every minute.
    static let quotaRetryAfterSeconds = 60

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let path = Self.segments(request.path)
        if let response = await OperatorRoutes(services: services).respond(to: request, path: path) { return response }
        if let response = await AdminAPI(services: services).respond(to: request, path: path) { return response }
        if let response = await AdminBackupRoute(services: services).respond(to: request, path: path) { return response }
        let isCallable = path.count == 2 && path[0] == "functions"
        // The token is checked once, here: the rate limit and the routes both use the user it names. A
        // JWT that is refused is answered as such (after the address's rate limit), not taken for no token.
        let bearer = await BearerToken.from(request.headers).asyncFlatMap { await services.signIn.bearer($0) }
        let user = try? bearer?.get()
        if case .limited(let seconds) = services.requestLimiter.admit(user: user, address: request.remoteAddress) {
            let refusal = RequestLimiter.refusal
            services.activity.answeredWithError(refusal.code.rawValue)
            var response = isCallable ? CallableFunctions.error(refusal) : Self.error(refusal)
            response.headers.replaceOrAdd(name: "Retry-After", value: "\(seconds)")
            return response
        }
        if let response = services.webClient.respond(to: request) { return response }
        if case .failure(let refusal) = bearer {
            services.activity.answeredWithError(refusal.code.rawValue)
            return isCallable ? CallableFunctions.error(refusal) : Self.error(refusal)
        }
        do {
            if let response = try await serverRoute(request, path: path) { return response }
            if isCallable {
                return await CallableFunctions(services: services).respond(to: request, function: path[1], user: user)
            }
            return try await gameRoute(request, path: path, user: user)
        } catch {
            services.activity.answeredWithError(error.code.rawValue)
            return Self.error(error)
        }
    }

    /// The body limit of the route `method` and `path` name; nil (the listener's limit) for any other
    /// request.
    func maxBodySize(method: HTTPMethod, path: String) -> Int? {
        let segments = Self.segments(path)
        return services.routes.first { $0.method == method && $0.match(segments) != nil }?.maxBodySize
    }

    static func segments(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    /// The server's own routes; nil when the path is none of them.
    private func serverRoute(_ request: HTTPRequest, path: [String]) async throws(WireError) -> HTTPResponse? {
        guard path.count == 1 else { return nil }
        switch (request.method, path[0]) {
        case (.POST, "session"):
            let args = request.body.readableBytes == 0 ? HelloArguments() : try body(HelloArguments.self, request)
            return Self.json(.ok, try await signIn(args))
        case (_, "ws"):
            throw WireError(.upgradeRequired, "/ws speaks WebSocket: send an upgrade request.")
        case (_, "session"):
            throw Self.methodNotAllowed(request)
        default:
            return nil
        }
    }

    /// A game's route: authenticated first when it needs a user, then its arguments read, then run.
    private func gameRoute(_ request: HTTPRequest, path: [String], user signedIn: UserID?) async throws(WireError) -> HTTPResponse {
        var pathMatched = false
        for route in services.routes {
            guard let parameters = route.match(path) else { continue }
            pathMatched = true
            guard route.method == request.method else { continue }
            let user = route.access == .signedIn ? try Self.signedIn(signedIn) : nil
            let routeRequest = HTTPRouteRequest(parameters: parameters, request: request)
            let call: PreparedCall
            switch route.handler {
            case .response(let respond): return try await respond(routeRequest, user)
            case .operation(let prepare): call = try prepare(routeRequest)
            }
            switch try await call(OperationContext(user: user, session: nil)) {
            case .reply(let result):
                return route.status == .noContent ? HTTPResponse(status: .noContent) : Self.json(route.status, result)
            case .subscribe:
                throw WireError(.notFound, "Subscriptions exist only on the WebSocket.")
            }
        }
        if pathMatched { throw Self.methodNotAllowed(request) }
        throw WireError(.notFound, "Nothing at \(request.path).")
    }

    private static func methodNotAllowed(_ request: HTTPRequest) -> WireError {
        WireError(.methodNotAllowed, "\(request.method) is not supported on \(request.path).")
    }

    private func body<T: Decodable>(_ type: T.Type, _ request: HTTPRequest) throws(WireError) -> T {
        try HTTPRouteRequest(parameters: [], request: request).body(type)
    }

    // MARK: Identity

    /// `POST /session`: signs in as `hello` does, on no connection.
    private func signIn(_ args: HelloArguments) async throws(WireError) -> EncodedJSON {
        let signedIn = try await services.signIn.hello(args, current: nil)
        return try EncodedJSON.encoding(
            HelloResult(
                userId: signedIn.user, token: services.tokens.issue(for: signedIn.user, at: services.clock.now),
                resumed: signedIn.resumed, node: services.node?.name))
    }

    // MARK: Responses

    static func json(_ status: HTTPResponseStatus, _ body: EncodedJSON) -> HTTPResponse {
        .json(status, ByteBuffer(bytes: body.bytes))
    }

    static func error(_ error: WireError) -> HTTPResponse {
        let body = (try? WireJSON.encode(ErrorBody(error: error))) ?? Array(#"{"error":{"code":"INTERNAL"}}"#.utf8)
        return withRetryAfter(.json(HTTPResponseStatus(statusCode: error.httpStatus), ByteBuffer(bytes: body)), for: error)
    }

    /// A refusal that passes with time says when to try again.
    static func withRetryAfter(_ response: HTTPResponse, for error: WireError) -> HTTPResponse {
        guard error.code == .quotaExceeded else { return response }
        var response = response
        response.headers.replaceOrAdd(name: "Retry-After", value: "\(quotaRetryAfterSeconds)")
        return response
    }

    private struct ErrorBody: Encodable { let error: WireError }

    // MARK: Identity

    /// The user the request's valid bearer token named; `UNAUTHENTICATED` when it had none.
    static func signedIn(_ user: UserID?) throws(WireError) -> UserID {
        guard let user else {
            throw WireError(.unauthenticated, "Send Authorization: Bearer <token>; get a token from POST /session.")
        }
        return user
    }
}

extension Optional {
    /// `flatMap` with an async transform.
    func asyncFlatMap<T>(_ transform: (Wrapped) async -> T?) async -> T? {
        guard let self else { return nil }
        return await transform(self)
    }
}

/// A token from `Authorization: Bearer …` (or nil).
enum BearerToken {
    static func from(_ headers: HTTPHeaders) -> String? {
        guard let value = headers.first(name: "Authorization") else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }
}
