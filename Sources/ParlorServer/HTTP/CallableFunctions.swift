import Foundation
import NIOCore
import NIOHTTP1
import ParlorRules
import ParlorWire
import WebSocketCore

/// The word-lobby seed's functions over HTTP, as Firebase callable functions are called:
/// `POST /functions/{name}` with `{"data": {...}}` and `Authorization: Bearer <token>` (from `POST /session`),
/// answered `{"result": ...}`, or `{"error": {"status": "NOT_FOUND", "message": ..., "details": {"code": ...}}}`
/// with the HTTP status Firebase gives that status. Same services as the WebSocket operations.
struct CallableFunctions: Sendable {
    /// The functions callable this way: the seed's, plus `leaveLobby` and `getCatalog` (which needs no sign-in).
    static let names: Set<OperationName> = [.createLobby, .joinLobby, .startGame, .submitWord, .leaveLobby, .getCatalog]

    let services: ParlorServices

    func respond(to request: HTTPRequest, function name: String) async -> HTTPResponse {
        do throws(WireError) {
            guard let operation = OperationName(rawValue: name), Self.names.contains(operation) else {
                throw WireError(.notFound, "There is no callable function \"\(name.prefix(40))\".")
            }
            guard request.method == .POST else {
                throw WireError(.methodNotAllowed, "Call \(name) with POST and a {\"data\": {...}} body.")
            }
            let result = try await call(operation, request)
            var body = Array(#"{"result":"#.utf8)
            body += result.bytes
            body.append(UInt8(ascii: "}"))
            return .json(.ok, ByteBuffer(bytes: body))
        } catch {
            return Self.error(error)
        }
    }

    private func call(_ operation: OperationName, _ request: HTTPRequest) async throws(WireError) -> EncodedJSON {
        if operation == .getCatalog {
            let args = try decode(OptionalData<GetCatalogArguments>.self, request).data ?? GetCatalogArguments()
            return try services.catalog.get(since: args.since)
        }
        let user = try authenticate(request)
        let lobbies = services.lobbies
        switch operation {
        case .createLobby:
            return try await lobbies.createLobby(try decode(CallData<CreateLobbyArguments>.self, request).data, by: user)
        case .joinLobby:
            return try await lobbies.joinLobby(try decode(CallData<JoinLobbyArguments>.self, request).data, by: user)
        case .submitWord:
            return try await lobbies.submitWord(try decode(CallData<SubmitWordArguments>.self, request).data, by: user)
        case .leaveLobby:
            return try await lobbies.leaveLobby(try decode(CallData<LobbyIdArguments>.self, request).data, by: user)
        case .startGame:
            switch try decode(CallData<StartGameArguments>.self, request).data {
            case .lobby(let lobbyId, let gameId):
                return try await lobbies.startGame(lobbyId: lobbyId, gameId: gameId, by: user)
            case .room(let roomCode):
                return try await services.rooms.startGame(roomCode: roomCode, by: user)
            }
        default:
            throw WireError(.notFound, "There is no callable function \"\(operation.rawValue)\".")
        }
    }

    private struct CallData<T: Decodable>: Decodable { let data: T }
    private struct OptionalData<T: Decodable>: Decodable { let data: T? }

    private func decode<T: Decodable>(_ type: T.Type, _ request: HTTPRequest) throws(WireError) -> T {
        let bytes = request.body.readableBytesView
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes.isEmpty ? Array("{}".utf8) : Array(bytes)))
        } catch let error as DecodingError {
            throw BadRequest(id: .null, error).wireError
        } catch {
            throw WireError.badRequest("The body must be a JSON object: {\"data\": {...}}.")
        }
    }

    private func authenticate(_ request: HTTPRequest) throws(WireError) -> UserID {
        guard let token = BearerToken.from(request.headers), let user = services.tokens.verify(token) else {
            throw WireError(.unauthenticated, "Send Authorization: Bearer <token>; get a token from POST /session.")
        }
        return user
    }

    /// Firebase's error body: `status` in upper snake case (`NOT_FOUND`), Parlor's specific code in `details`.
    static func error(_ error: WireError) -> HTTPResponse {
        let body = ErrorBody(error: .init(
            status: error.status.rawValue.uppercased().replacingOccurrences(of: "-", with: "_"),
            message: error.message, details: .init(code: error.code.rawValue)))
        let bytes = (try? WireJSON.encode(body)) ?? Array(#"{"error":{"status":"INTERNAL","message":"internal"}}"#.utf8)
        // A wrong method is an HTTP matter, answered as HTTP answers it; everything else as Firebase would.
        if error.code == .methodNotAllowed {
            var response = HTTPResponse.json(.methodNotAllowed, ByteBuffer(bytes: bytes))
            response.headers.add(name: "Allow", value: "POST")
            return response
        }
        return .json(HTTPResponseStatus(statusCode: error.status.defaultHTTPStatus), ByteBuffer(bytes: bytes))
    }

    private struct ErrorBody: Encodable {
        struct Payload: Encodable {
            let status: String
            let message: String
            let details: Details
        }

        struct Details: Encodable { let code: String }

        let error: Payload
    }
}
