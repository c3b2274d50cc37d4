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
    let services: ParlorServices

    /// Answers a call of function `name`; `user` is whom the request's bearer token names (nil: none, or
    /// not a valid one).
    func respond(to request: HTTPRequest, function name: String, user signedIn: UserID?) async -> HTTPResponse {
        do throws(WireError) {
            guard let choice = services.callable.choice(for: OperationName(name)) else {
                throw WireError(.notFound, "There is no callable function \"\(name.prefix(40))\".")
            }
            guard request.method == .POST else {
                throw WireError(.methodNotAllowed, "Call \(name) with POST and a {\"data\": {...}} body.")
            }
            // Signed in first, as on every authenticated route; only functions anyone may call skip it.
            let user = services.callable.access(of: OperationName(name)) == .anyone ? nil : try HTTPRoutes.signedIn(signedIn)
            let call: OperationTable.Call
            switch RequestEnvelope.decodeCallable(request.body.readableBytesView, choice) {
            case .success(let decoded): call = decoded
            case .failure(let badRequest): throw badRequest.wireError
            }
            guard case .reply(let result) = try await call.run(OperationContext(user: user, session: nil)) else {
                throw WireError.internalError("\(name) cannot be called over HTTP.")
            }
            var body = Array(#"{"result":"#.utf8)
            body += result.bytes
            body.append(UInt8(ascii: "}"))
            return .json(.ok, ByteBuffer(bytes: body))
        } catch {
            return Self.error(error)
        }
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
        return HTTPRoutes.withRetryAfter(.json(HTTPResponseStatus(statusCode: error.status.defaultHTTPStatus), ByteBuffer(bytes: bytes)), for: error)
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
