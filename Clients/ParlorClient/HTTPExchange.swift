import NIOCore
import NIOHTTP1
import NIOPosix
import ParlorWire
import SystemTLS

/// One HTTP/1.1 request to the Parlor server on a connection of its own (TLS for `wss://`, trusting what
/// the WebSocket trusts), for what does not go over the WebSocket: photo uploads. The server's error
/// body (`{"error": {code, status, message}}`) becomes `ParlorClientError.server`.
enum HTTPExchange {
    struct Response: Sendable {
        let status: Int
        let body: [UInt8]

        /// The body as `T` for a 2xx status; otherwise the server's error.
        func decode<T: Decodable>(_ type: T.Type, operation: String) throws(ParlorClientError) -> T {
            guard (200..<300).contains(status) else {
                if let body = try? WireJSON.decode(ErrorBody.self, from: body) { throw ParlorClientError(body.error) }
                throw .protocolViolation("\(operation) was answered with HTTP status \(status)")
            }
            do {
                return try WireJSON.decode(T.self, from: body)
            } catch {
                throw .protocolViolation("the answer to \(operation) could not be read (\(error))")
            }
        }

        private struct ErrorBody: Decodable { let error: WireError }
    }

    /// The largest answer read; the server's answers here are a few hundred bytes.
    static let maxResponseBytes = 64 * 1024

    static func perform(
        _ method: HTTPMethod, path: String, to server: ServerAddress, tls configured: TLSClientContext?,
        headers: [(String, String)], body: [UInt8], timeout: Duration
    ) async throws(ParlorClientError) -> Response {
        do {
            return try await withThrowingTaskGroup(of: Response?.self) { group in
                group.addTask { try await exchange(method, path: path, to: server, tls: configured, headers: headers, body: body) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let response = try await group.next() ?? nil else {
                    throw ParlorClientError.timeout(operation: "\(method) \(path)", after: timeout)
                }
                return response
            }
        } catch let error as ParlorClientError {
            throw error
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw .notConnected(reason: "\(method) \(path) on \(server.host):\(server.port) failed: \(error)")
        }
    }

    private static func exchange(
        _ method: HTTPMethod, path: String, to server: ServerAddress, tls configured: TLSClientContext?,
        headers: [(String, String)], body: [UInt8]
    ) async throws -> Response {
        let tls: TLSClientContext?
        if server.isSecure {
            tls = try configured ?? TLSClientContext(configuration: TLSClientConfiguration())
        } else {
            tls = nil
        }
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .connect(host: server.host, port: server.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let tls { try pipeline.addHandler(try tls.makeClientHandler(serverHostname: server.host)) }
                    try pipeline.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var head = HTTPRequestHead(version: .http1_1, method: method, uri: path)
            head.headers.add(name: "Host", value: server.hostHeader)
            head.headers.add(name: "Content-Length", value: String(body.count))
            head.headers.add(name: "Connection", value: "close")
            for (name, value) in headers { head.headers.add(name: name, value: value) }
            try await outbound.write(.head(head))
            try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body))))
            try await outbound.write(.end(nil))
            var status = 0
            var collected = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let responseHead):
                    status = Int(responseHead.status.code)
                case .body(var chunk):
                    guard collected.readableBytes + chunk.readableBytes <= maxResponseBytes else {
                        throw ParlorClientError.protocolViolation("the answer to \(method) \(path) is over \(maxResponseBytes) bytes")
                    }
                    collected.writeBuffer(&chunk)
                case .end:
                    return Response(status: status, body: Array(collected.readableBytesView))
                }
            }
            throw ParlorClientError.connectionLost(operation: "\(method) \(path)")
        }
    }
}

extension ServerAddress {
    var isSecure: Bool { url.hasPrefix("wss://") }

    /// The `Host` header: the port only when it is not the scheme's default.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (isSecure ? 443 : 80) ? name : "\(name):\(port)"
    }
}
