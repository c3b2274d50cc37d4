import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import SystemTLS

/// An `http://` or `https://` address: what `HTTPFetch` can GET.
public struct HTTPURL: Sendable, Equatable, CustomStringConvertible {
    public let secure: Bool
    public let host: String
    public let port: Int
    /// The path and query, from the first `/`.
    public let target: String

    public struct Invalid: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public init(_ text: String) throws(Invalid) {
        let rest: Substring
        if text.hasPrefix("https://") {
            secure = true
            rest = text.dropFirst(8)
        } else if text.hasPrefix("http://") {
            secure = false
            rest = text.dropFirst(7)
        } else {
            throw Invalid(description: "must start with https:// (or http:// on a private network)")
        }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var path = String(rest.dropFirst(authority.count).prefix { $0 != "#" })
        if path.isEmpty || path.hasPrefix("?") { path = "/" + path }
        guard !authority.isEmpty, !authority.contains("@"), !authority.contains(where: { $0 == " " }) else {
            throw Invalid(description: "has no host (or has credentials in it)")
        }
        var host = String(authority)
        var port = secure ? 443 : 80
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw Invalid(description: "has an unclosed IPv6 address") }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") {
                guard let given = Int(after.dropFirst()), (1...65535).contains(given) else { throw Invalid(description: "has a bad port") }
                port = given
            }
            host = String(host[host.index(after: host.startIndex)..<close])
        } else if let colon = host.lastIndex(of: ":") {
            guard let given = Int(host[host.index(after: colon)...]), (1...65535).contains(given) else {
                throw Invalid(description: "has a bad port")
            }
            port = given
            host = String(host[..<colon])
        }
        guard !host.isEmpty else { throw Invalid(description: "has no host") }
        self.host = host
        self.port = port
        target = path
    }

    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let defaultPort = secure ? 443 : 80
        return "\(secure ? "https" : "http")://\(shownHost)\(port == defaultPort ? "" : ":\(port)")\(target)"
    }
}

/// A small HTTP/1.1 GET client on SwiftNIO, with the system OpenSSL for `https://` (SystemTLS, the
/// certificate checked against the system's roots and the host name): what the server needs to fetch
/// an issuer's key set, without a client library that would bring a TLS library of its own. One
/// request per connection, a bounded response and a deadline for the whole exchange.
enum HTTPFetch {
    struct Response: Sendable {
        let status: Int
        let headers: HTTPHeaders
        let body: [UInt8]
    }

    struct Failure: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    static func get(
        _ url: HTTPURL, timeout: TimeAmount = .seconds(10), maxBodyBytes: Int = 256 * 1024,
        tls: TLSClientContext? = nil, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> Response {
        let context: TLSClientContext?
        if url.secure {
            context = try tls ?? TLSClientContext(configuration: TLSClientConfiguration())
        } else {
            context = nil
        }
        let loop = group.next()
        let promise = OneAnswer(loop.makePromise(of: Response.self))
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: loop)
                .connectTimeout(timeout)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        if let context { try pipeline.addHandler(try context.makeClientHandler(serverHostname: url.host)) }
                        try pipeline.addHTTPClientHandlers()
                        try pipeline.addHandler(ResponseCollector(promise: promise, maxBodyBytes: maxBodyBytes))
                    }
                }
                .connect(host: url.host, port: url.port).get()
        } catch {
            promise.complete(.failure(error))
            throw Failure(description: "cannot connect to \(url.host):\(url.port): \(error)")
        }
        let deadline = loop.scheduleTask(in: timeout) {
            promise.complete(.failure(Failure(description: "no complete answer within \(timeout.nanoseconds / 1_000_000_000) s")))
            channel.close(promise: nil)
        }
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: url.target)
        let defaultPort = url.secure ? 443 : 80
        head.headers.add(name: "Host", value: url.port == defaultPort ? url.host : "\(url.host):\(url.port)")
        head.headers.add(name: "Accept", value: "application/json")
        head.headers.add(name: "Connection", value: "close")
        head.headers.add(name: "User-Agent", value: "parlor-server")
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        defer {
            deadline.cancel()
            channel.close(promise: nil)
        }
        return try await promise.futureResult.get()
    }

    /// A promise completed once, by whichever comes first: the answer, a failure or the deadline.
    private final class OneAnswer: Sendable {
        private let promise: EventLoopPromise<Response>
        private let completed = NIOLockedValueBox(false)

        init(_ promise: EventLoopPromise<Response>) { self.promise = promise }

        var futureResult: EventLoopFuture<Response> { promise.futureResult }

        func complete(_ result: Result<Response, any Error>) {
            let first = completed.withLockedValue { done in
                defer { done = true }
                return !done
            }
            if first { promise.completeWith(result) }
        }
    }

    /// Gathers one response; fails the promise when the body passes the limit or the connection ends early.
    private final class ResponseCollector: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPClientResponsePart

        private let promise: OneAnswer
        private let maxBodyBytes: Int
        private var head: HTTPResponseHead?
        private var body: [UInt8] = []
        private var done = false

        init(promise: OneAnswer, maxBodyBytes: Int) {
            self.promise = promise
            self.maxBodyBytes = maxBodyBytes
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !done else { return }
            switch unwrapInboundIn(data) {
            case .head(let received):
                head = received
            case .body(var buffer):
                guard body.count + buffer.readableBytes <= maxBodyBytes else {
                    finish(.failure(Failure(description: "the answer is larger than \(maxBodyBytes) bytes")), context)
                    return
                }
                body += buffer.readBytes(length: buffer.readableBytes) ?? []
            case .end:
                guard let head else {
                    finish(.failure(Failure(description: "no response head")), context)
                    return
                }
                finish(.success(Response(status: Int(head.status.code), headers: head.headers, body: body)), context)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            finish(.failure(Failure(description: "the connection closed before the answer was complete")), context)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            finish(.failure(Failure(description: "\(error)")), context)
        }

        private func finish(_ result: Result<Response, any Error>, _ context: ChannelHandlerContext) {
            guard !done else { return }
            done = true
            promise.complete(result)
            context.close(promise: nil)
        }
    }
}
