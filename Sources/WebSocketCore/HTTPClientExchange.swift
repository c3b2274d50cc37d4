import NIOCore
import NIOHTTP1
import NIOPosix
import SystemTLS

/// One HTTP/1.1 request on a connection of its own (TLS through SystemTLS when a context is given, the
/// certificate checked against `host`), with a bounded answer and a deadline for the whole exchange:
/// what the client library needs for an upload and the server for an issuer's key set, without a
/// client library that would bring a TLS library of its own.
public enum HTTPClientExchange {
    public struct Response: Sendable {
        public let status: Int
        public let headers: HTTPHeaders
        public let body: [UInt8]
    }

    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// No complete answer within the deadline.
        case timeout
        /// The answer's body is larger than the limit.
        case tooLarge(limit: Int)
        /// The connection ended before the answer did.
        case connectionLost

        public var description: String {
            switch self {
            case .timeout: "no complete answer in time"
            case .tooLarge(let limit): "the answer is over \(limit) bytes"
            case .connectionLost: "the connection closed before the answer was complete"
            }
        }
    }

    /// `method` `target` on `host`:`port`; `Host` names the port only when it is not the scheme's
    /// default. Throws `Failure`, `CancellationError`, or what connecting threw.
    public static func perform(
        _ method: HTTPMethod, host: String, port: Int, target: String, tls: TLSClientContext?, headers: [(String, String)] = [],
        body: [UInt8] = [], maxResponseBytes: Int, timeout: Duration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> Response {
        try await withThrowingTaskGroup(of: Response?.self) { tasks in
            tasks.addTask {
                try await exchange(
                    method, host: host, port: port, target: target, tls: tls, headers: headers, body: body,
                    maxResponseBytes: maxResponseBytes, group: group)
            }
            tasks.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { tasks.cancelAll() }
            guard let response = try await tasks.next() ?? nil else { throw Failure.timeout }
            return response
        }
    }

    private static func exchange(
        _ method: HTTPMethod, host: String, port: Int, target: String, tls: TLSClientContext?, headers: [(String, String)],
        body: [UInt8], maxResponseBytes: Int, group: any EventLoopGroup
    ) async throws -> Response {
        let channel = try await ClientBootstrap(group: group)
            .connectTimeout(.seconds(10))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let tls { try pipeline.addHandler(try tls.makeClientHandler(serverHostname: host)) }
                    try pipeline.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var head = HTTPRequestHead(version: .http1_1, method: method, uri: target)
            let name = host.contains(":") ? "[\(host)]" : host
            head.headers.add(name: "Host", value: port == (tls == nil ? 80 : 443) ? name : "\(name):\(port)")
            if method != .GET || !body.isEmpty { head.headers.add(name: "Content-Length", value: String(body.count)) }
            head.headers.add(name: "Connection", value: "close")
            for (name, value) in headers { head.headers.add(name: name, value: value) }
            try await outbound.write(.head(head))
            if !body.isEmpty { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
            try await outbound.write(.end(nil))
            var responseHead: HTTPResponseHead?
            var collected = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let received):
                    responseHead = received
                case .body(var chunk):
                    guard collected.readableBytes + chunk.readableBytes <= maxResponseBytes else {
                        throw Failure.tooLarge(limit: maxResponseBytes)
                    }
                    collected.writeBuffer(&chunk)
                case .end:
                    guard let responseHead else { throw Failure.connectionLost }
                    return Response(
                        status: Int(responseHead.status.code), headers: responseHead.headers, body: Array(collected.readableBytesView))
                }
            }
            throw Failure.connectionLost
        }
    }
}
