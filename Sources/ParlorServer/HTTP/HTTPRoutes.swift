import Foundation
import NIOCore
import NIOHTTP1
import ParlorRules
import ParlorWire
import WebSocketCore

/// The REST forms of the operations (the seed's routes), `/healthz` and `/metrics`, served by the same
/// services as the WebSocket operations. Errors come back as `{"error": {...}}` with the code's HTTP status.
struct HTTPRoutes: Sendable {
    let services: ParlorServices

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let path = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        do {
            return try await route(request, path: path)
        } catch {
            return Self.error(error)
        }
    }

    private func route(_ request: HTTPRequest, path: [String]) async throws(WireError) -> HTTPResponse {
        let rooms = services.rooms
        let route = Route(path)
        switch (request.method, route) {
        case (.GET, .healthz), (.HEAD, .healthz):
            return .text(.ok, "ok\n")
        case (.GET, .metrics):
            services.refreshGauges()
            return HTTPResponse(
                status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"],
                body: ByteBuffer(bytes: services.metrics.exposition()))

        case (.POST, .session):
            let args = request.body.readableBytes == 0 ? HelloArguments() : try decode(HelloArguments.self, request)
            return Self.json(.ok, try signIn(args))

        case (.GET, .room(let code)):
            return Self.json(.ok, try await rooms.getRoom(code: code))
        case (.POST, .rooms):
            let user = try authenticate(request)
            return Self.json(.created, try await rooms.createRoom(try decode(CreateRoomArguments.self, request), by: user))
        case (.POST, .players(let code)):
            let user = try authenticate(request)
            let body = try decode(PlayerNameBody.self, request)
            return Self.json(.ok, try await rooms.joinRoom(JoinRoomArguments(code: code, playerName: body.playerName), by: user))
        case (.PUT, .ready(let code, let playerId)):
            let user = try authenticate(request)
            let body = try decode(ReadyBody.self, request)
            let args = SetReadyArguments(roomCode: code, playerId: try Self.userID(playerId), ready: body.ready)
            return Self.json(.ok, try await rooms.setReady(args, by: user))
        case (.POST, .start(let code)):
            let user = try authenticate(request)
            return Self.json(.ok, try await rooms.startGame(roomCode: code, by: user))
        case (.DELETE, .player(let code, let playerId)):
            let user = try authenticate(request)
            _ = try await rooms.leaveRoom(LeaveRoomArguments(roomCode: code, playerId: try Self.userID(playerId)), by: user)
            return HTTPResponse(status: .noContent)
        case (.POST, .scores(let code)):
            let user = try authenticate(request)
            let body = try decode(ScoreBody.self, request)
            let args = SubmitScoreArguments(roomCode: code, playerId: body.playerId, round: body.round, score: body.score)
            return Self.json(.ok, try await rooms.submitScore(args, by: user))
        case (.POST, .nextRound(let code)):
            let user = try authenticate(request)
            return Self.json(.ok, try await rooms.nextRound(roomCode: code, by: user))

        case (.GET, .userGames(let userId)):
            let user = try authenticate(request)
            let query = request.query
            let args = ListGamesArguments(
                userId: try Self.userID(userId), before: query["before"], limit: query["limit"].flatMap { Int($0) })
            return Self.json(.ok, try await rooms.listGames(args, by: user))

        case (.GET, .catalog):
            return CatalogHTTP.response(services.catalog.current, ifNoneMatch: request.headers["If-None-Match"])
        case (_, .function(let name)):
            return await CallableFunctions(services: services).respond(to: request, function: name)

        case (_, .webSocket):
            throw WireError(.upgradeRequired, "/ws speaks WebSocket: send an upgrade request.")
        case (_, .unknown):
            throw WireError(.notFound, "Nothing at \(request.path).")
        default:
            throw WireError(.methodNotAllowed, "\(request.method) is not supported on \(request.path).")
        }
    }

    /// The routes, by path alone; the method is matched in `route`.
    enum Route: Equatable {
        case healthz, metrics, session, webSocket
        case rooms
        case room(String)
        case players(String)
        case player(String, String)
        case ready(String, String)
        case start(String)
        case scores(String)
        case nextRound(String)
        case userGames(String)
        case catalog
        /// `/functions/{name}`: a callable function (`CallableFunctions`).
        case function(String)
        case unknown

        init(_ path: [String]) {
            switch path.count {
            case 1:
                switch path[0] {
                case "healthz": self = .healthz
                case "metrics": self = .metrics
                case "session": self = .session
                case "ws": self = .webSocket
                case "rooms": self = .rooms
                case "catalog": self = .catalog
                default: self = .unknown
                }
            case 2 where path[0] == "rooms":
                self = .room(path[1])
            case 2 where path[0] == "functions":
                self = .function(path[1])
            case 3 where path[0] == "rooms":
                switch path[2] {
                case "players": self = .players(path[1])
                case "start": self = .start(path[1])
                case "scores": self = .scores(path[1])
                case "next-round": self = .nextRound(path[1])
                default: self = .unknown
                }
            case 3 where path[0] == "users" && path[2] == "games":
                self = .userGames(path[1])
            case 4 where path[0] == "rooms" && path[2] == "players":
                self = .player(path[1], path[3])
            case 5 where path[0] == "rooms" && path[2] == "players" && path[4] == "ready":
                self = .ready(path[1], path[3])
            default:
                self = .unknown
            }
        }
    }

    // MARK: Bodies

    private struct PlayerNameBody: Decodable { let playerName: String }
    private struct ReadyBody: Decodable { let ready: Bool }
    private struct ScoreBody: Decodable {
        let playerId: UserID
        let round: Int
        let score: Int
    }

    private func decode<T: Decodable>(_ type: T.Type, _ request: HTTPRequest) throws(WireError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(request.body.readableBytesView))
        } catch let error as DecodingError {
            throw BadRequest(id: .null, error).wireError
        } catch {
            throw WireError.badRequest("The body must be a JSON object.")
        }
    }

    // MARK: Identity

    private func authenticate(_ request: HTTPRequest) throws(WireError) -> UserID {
        guard let token = BearerToken.from(request.headers), let user = services.tokens.verify(token) else {
            throw WireError(.unauthenticated, "Send Authorization: Bearer <token>; get a token from POST /session.")
        }
        return user
    }

    private func signIn(_ args: HelloArguments) throws(WireError) -> EncodedJSON {
        var resumed = false
        let user: UserID
        if let token = args.token, let known = services.tokens.verify(token) {
            user = known
            resumed = true
        } else {
            var generator = SystemRandomNumberGenerator()
            user = UserID.random(using: &generator)
        }
        do {
            return try EncodedJSON(HelloResult(userId: user, token: services.tokens.issue(for: user, at: services.clock.now), resumed: resumed))
        } catch {
            throw WireError.internalError()
        }
    }

    private static func userID(_ text: String) throws(WireError) -> UserID {
        guard let user = UserID(text) else {
            throw WireError(.playerNotFound, "Player \(text.prefix(40)) is not in this room.")
        }
        return user
    }

    // MARK: Responses

    static func json(_ status: HTTPResponseStatus, _ body: EncodedJSON) -> HTTPResponse {
        .json(status, ByteBuffer(bytes: body.bytes))
    }

    static func error(_ error: WireError) -> HTTPResponse {
        let body = (try? WireJSON.encode(ErrorBody(error: error))) ?? Array(#"{"error":{"code":"INTERNAL"}}"#.utf8)
        return .json(HTTPResponseStatus(statusCode: error.httpStatus), ByteBuffer(bytes: body))
    }

    private struct ErrorBody: Encodable { let error: WireError }
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
