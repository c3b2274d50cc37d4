import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ParlorRules
import ParlorWire
import WebSocketCore

/// The operator's live view, `/admin/api/…` on the main port and the admin port alike: the server's
/// figures and live games, one game's view, the open connections, and two actions — close a game,
/// disconnect a client — each with a reason and logged. Every request needs
/// `Authorization: Bearer <admin token>` and counts against its address's rate like any other.
struct AdminAPI: Sendable {
    let services: ParlorServices

    /// The games the overview lists at most (every kind together), and the connections.
    static let listLimit = 200
    /// A reason goes into a close frame, whose reason holds 123 bytes.
    static let maxReasonBytes = 120

    static let prefix = ["admin", "api"]

    /// The response for an `/admin/api/…` request; nil for any other path (split into segments).
    func respond(to request: HTTPRequest, path: [String]) async -> HTTPResponse? {
        guard path.count > 2, Array(path.prefix(2)) == Self.prefix else { return nil }
        if let refusal = Self.refusal(request, services: services, needing: "The admin API") { return refusal }
        do {
            return try await route(request, Array(path.dropFirst(2)))
        } catch {
            return HTTPRoutes.error(error)
        }
    }

    /// The answer to an operator's request that may not go on — over its address's rate, or without the
    /// admin token — or nil when it may. Every admin route asks this first.
    static func refusal(_ request: HTTPRequest, services: ParlorServices, needing what: String) -> HTTPResponse? {
        if case .limited(let seconds) = services.requestLimiter.admit(user: nil, address: request.remoteAddress) {
            var response = HTTPRoutes.error(RequestLimiter.refusal)
            response.headers.replaceOrAdd(name: "Retry-After", value: "\(seconds)")
            return response
        }
        guard services.adminPageToken.accepts(BearerToken.from(request.headers)) else {
            var response = HTTPRoutes.error(WireError(.unauthenticated, "\(what) needs Authorization: Bearer <admin token>."))
            response.headers.add(name: "WWW-Authenticate", value: "Bearer")
            return response
        }
        return nil
    }

    private func route(_ request: HTTPRequest, _ path: [String]) async throws(WireError) -> HTTPResponse {
        switch (request.method, path.count, path[0]) {
        case (.GET, 1, "overview"):
            return try Self.json(await overview())
        case (.GET, 1, "connections"):
            return try Self.json(connections())
        case (.GET, 3, "games"):
            return try await game(kind: path[1], code: path[2])
        case (.POST, 4, "games") where path[3] == "close":
            try await close(kind: path[1], code: path[2], reason: reason(request), from: request)
            return HTTPResponse(status: .noContent)
        case (.POST, 3, "connections") where path[2] == "disconnect":
            try disconnect(path[1], reason: reason(request), from: request)
            return HTTPResponse(status: .noContent)
        case (_, 1, "overview"), (_, 1, "connections"), (_, 3, "games"), (_, 4, "games"), (_, 3, "connections"):
            throw WireError(.methodNotAllowed, "\(request.method) is not supported on \(request.path).")
        default:
            throw WireError(.notFound, "Nothing at \(request.path).")
        }
    }

    // MARK: Figures

    func overview() async -> AdminViews.Overview {
        let reading = ExpositionReading(String(decoding: services.metrics.exposition(), as: UTF8.self))
        let figures = services.rates.take(.init(at: .now(), reading: reading, storeWrites: services.store.committedWrites))
        var byKind: [String: [String: Int]] = [:]
        var list: [AdminViews.Game] = []
        var total = 0
        for game in services.games {
            byKind[game.kind.name] = Dictionary(uniqueKeysWithValues: game.countsByStage.map { ($0.key.rawValue, $0.value) })
            total += game.count
            guard list.count < Self.listLimit else { continue }
            list += await game.adminGames(limit: Self.listLimit - list.count, presence: services.presence)
        }
        return AdminViews.Overview(
            connections: services.connections.count, connectedUsers: services.presence.connectedUsers,
            subscriptions: services.subscriberCount,
            games: byKind,
            rates: AdminViews.Rates(
                windowSeconds: figures.windowSeconds, operationsPerSecond: figures.operationsPerSecond,
                errorsPerSecond: figures.errorsPerSecond, storeCommitsPerSecond: figures.storeWritesPerSecond,
                latencyP50Seconds: figures.latencyP50Seconds, latencyP99Seconds: figures.latencyP99Seconds),
            list: list, truncated: total > list.count)
    }

    func connections() -> AdminViews.Connections {
        let sessions = services.connections.oldest(Self.listLimit)
        let total = services.connections.count
        return AdminViews.Connections(
            connections: sessions.map { number, session in
                AdminViews.Connection(
                    id: number, userId: session.user, address: session.connection.remoteAddress?.ipAddress,
                    subscriptions: session.subscriptionCount, openedAt: session.openedAt.millisecondsSinceEpoch)
            },
            total: total, truncated: total > sessions.count)
    }

    /// `{"game": {…}, "view": <the public view its subscribers have now>}`.
    private func game(kind: String, code: String) async throws(WireError) -> HTTPResponse {
        let (game, view) = try await host(kind).adminGame(code: code, presence: services.presence)
        var body = Array(#"{"game":"#.utf8)
        body += try Self.encode(game)
        body += Array(#","view":"#.utf8)
        body += view.bytes
        body.append(UInt8(ascii: "}"))
        return .json(.ok, ByteBuffer(bytes: body))
    }

    // MARK: Actions

    private func close(kind: String, code: String, reason: String, from request: HTTPRequest) async throws(WireError) {
        try await host(kind).close(code: code, reason: reason)
        services.logger.info(
            "Operator closed a game",
            metadata: ["kind": "\(kind)", "code": "\(code)", "reason": "\(reason)", "from": "\(Self.address(request))"])
    }

    private func disconnect(_ number: String, reason: String, from request: HTTPRequest) throws(WireError) {
        guard let id = Int(number), let session = services.connections.session(id) else {
            throw WireError(.notFound, "No open connection \(number); list them at /admin/api/connections.")
        }
        session.disconnect(reason: reason)
        services.logger.info(
            "Operator disconnected a client",
            metadata: [
                "connection": "\(id)", "user": "\(session.user.map(\.rawValue) ?? "-")", "reason": "\(reason)",
                "from": "\(Self.address(request))",
            ])
    }

    private func host(_ kind: String) throws(WireError) -> any HostedGame {
        guard let game = services.games.first(where: { $0.kind.name == kind }) else {
            throw WireError(.notFound, "No kind of game is called \(kind); the overview lists them.")
        }
        return game
    }

    /// The body's `reason`: one line a person can read, 1 to 120 bytes.
    private func reason(_ request: HTTPRequest) throws(WireError) -> String {
        let body = try HTTPRouteRequest(parameters: [], request: request).body(ReasonBody.self)
        let reason = body.reason.trimmingCharacters(in: .whitespaces)
        guard !reason.isEmpty else { throw .badRequest("reason is empty; say why, in a few words.") }
        guard reason.utf8.count <= Self.maxReasonBytes else {
            throw .badRequest("reason is longer than \(Self.maxReasonBytes) bytes; the close frame carrying it is small.")
        }
        guard !reason.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .badRequest("reason must be one line of text, without control characters.")
        }
        return reason
    }

    private struct ReasonBody: Decodable { let reason: String }

    private static func address(_ request: HTTPRequest) -> String { request.remoteAddress?.ipAddress ?? "-" }

    private static func encode(_ value: some Encodable) throws(WireError) -> [UInt8] {
        do {
            return try WireJSON.encode(value)
        } catch {
            throw WireError.internalError("The admin view could not be encoded.")
        }
    }

    private static func json(_ value: some Encodable) throws(WireError) -> HTTPResponse {
        .json(.ok, ByteBuffer(bytes: try encode(value)))
    }
}
