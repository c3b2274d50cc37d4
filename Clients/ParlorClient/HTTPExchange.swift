import NIOHTTP1
import ParlorWire
import SystemTLS
import WebSocketCore

/// One HTTP/1.1 request to the Parlor server on a connection of its own (TLS for `wss://`, trusting what
/// the WebSocket trusts), for what does not go over the WebSocket: photo uploads. The server's error
/// body (`{"error": {code, status, message}}`) becomes `ParlorClientError.server`.
enum HTTPExchange {
    struct Response: Sendable {
        let status: Int
        let body: [UInt8]

        /// The body as `T` for a 2xx status; otherwise the server's error.
        func decode<T: Decodable>(_ type: T.Type, operation: String) throws(ParlorClientError) -> T {
            let body = try bytes(operation: operation)
            do {
                return try WireJSON.decode(T.self, from: body)
            } catch {
                throw .protocolViolation("the answer to \(operation) could not be read (\(error))")
            }
        }

        /// The body as it came for a 2xx status; otherwise the server's error.
        func bytes(operation: String) throws(ParlorClientError) -> [UInt8] {
            guard (200..<300).contains(status) else {
                if let body = try? WireJSON.decode(ErrorBody.self, from: body) { throw ParlorClientError(body.error) }
                throw .protocolViolation("\(operation) was answered with HTTP status \(status)")
            }
            return body
        }

        private struct ErrorBody: Decodable { let error: WireError }
    }

    /// The largest answer read; the server's answers here are a few hundred bytes.
    static let maxResponseBytes = 64 * 1024

    static func perform(
        _ method: HTTPMethod, path: String, to server: ServerAddress, tls configured: TLSClientContext?,
        headers: [(String, String)], body: [UInt8], timeout: Duration, maxResponseBytes: Int = HTTPExchange.maxResponseBytes
    ) async throws(ParlorClientError) -> Response {
        do {
            let tls = server.isSecure ? try configured ?? TLSClientContext(configuration: TLSClientConfiguration()) : nil
            let response = try await HTTPClientExchange.perform(
                method, host: server.host, port: server.port, target: path, tls: tls, headers: headers, body: body,
                maxResponseBytes: maxResponseBytes, timeout: timeout)
            return Response(status: response.status, body: response.body)
        } catch HTTPClientExchange.Failure.timeout {
            throw .timeout(operation: "\(method) \(path)", after: timeout)
        } catch HTTPClientExchange.Failure.tooLarge {
            throw .protocolViolation("the answer to \(method) \(path) is over \(maxResponseBytes) bytes")
        } catch HTTPClientExchange.Failure.connectionLost {
            throw .connectionLost(operation: "\(method) \(path)")
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw .notConnected(reason: "\(method) \(path) on \(server.host):\(server.port) failed: \(error)")
        }
    }
}

extension ServerAddress {
    var isSecure: Bool { url.hasPrefix("wss://") }
}
